extension JSONValue {
    /// The line of each member of a document by its JSON path (``JSONPath``), found in one walk,
    /// so that looking up many paths is linear in the document's size (looking each one up in its
    /// object's members, one by one, made 40,000 unknown keys quadratic).
    package struct Lines {
        private var lines: [String: Int] = [:]

        package init(_ document: JSONValue) {
            if case .object(let members) = document, let first = members.first { lines[""] = first.line }
            record(document, path: "")
        }

        private mutating func record(_ value: JSONValue, path: String) {
            switch value {
            case .object(let members):
                // The last member of a key counts, as JSON decoders read it.
                var last: [String: Int] = [:]
                for (index, member) in members.enumerated() { last[member.key] = index }
                for (index, member) in members.enumerated() where last[member.key] == index {
                    let memberPath = JSONPath.member(path, member.key)
                    lines[memberPath] = member.line
                    record(member.value, path: memberPath)
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    let elementPath = JSONPath.element(path, index)
                    if case .object(let members) = element, let first = members.first { lines[elementPath] = first.line }
                    record(element, path: elementPath)
                }
            default:
                break
            }
        }

        /// The line of the member at `path` ("clubs[3].coordinates.latitude"), of an object element's
        /// first member, else of the nearest ancestor that is one of these (a missing top-level key:
        /// the document's first member).
        package func line(at path: String) -> Int? {
            guard !path.isEmpty else { return nil }
            var path: String? = path
            while let current = path {
                if let line = lines[current] { return line }
                path = JSONPath.parent(of: current)
            }
            return nil
        }
    }
}
