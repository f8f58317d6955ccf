extension JSONValue {
    /// The line of the member at `path` ("clubs[3].coordinates.latitude"), or of its nearest
    /// ancestor that is a member when the path ends in a missing member or an array element.
    package func line(at path: String) -> Int? {
        guard !path.isEmpty else { return nil }
        var value = self
        var line: Int?
        for step in Self.steps(of: path) {
            switch step {
            case .key(let key):
                guard case .object(let members) = value, let member = members.last(where: { $0.key == key }) else {
                    if case .object(let members) = value, line == nil { return members.first?.line }
                    return line
                }
                value = member.value
                line = member.line
            case .index(let index):
                guard case .array(let elements) = value, elements.indices.contains(index) else { return line }
                value = elements[index]
                if case .object(let members) = value, let first = members.first { line = first.line }
            }
        }
        return line
    }

    enum PathStep: Equatable {
        case key(String)
        case index(Int)
    }

    /// "a.b[2].c" as steps. Keys with dots or brackets are not expected in this data.
    static func steps(of path: String) -> [PathStep] {
        var steps: [PathStep] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { steps.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) { steps.append(.index(index)) }
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                steps.append(.key(String(rest)))
            }
        }
        return steps
    }
}
