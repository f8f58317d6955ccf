import Foundation

/// A JSON value together with its path in the document, for reading records
/// with errors that say exactly where they are.
package struct JSONCursor {
    package let value: JSONValue
    package let path: String
    package var line: Int?

    package init(_ value: JSONValue, path: String = "", line: Int? = nil) {
        self.value = value
        self.path = path
        self.line = line
    }

    /// A problem with one record: where it is, why, and the id of its kind (a `DiagnosticRule`
    /// id: "wrong-type", "missing-key", "empty-value", "control-character-in-name", ...).
    package struct Problem: Error {
        package var path: String
        package var line: Int?
        package var message: String
        package var rule: String

        package init(path: String, line: Int?, message: String, rule: String) {
            self.path = path
            self.line = line
            self.message = message
            self.rule = rule
        }
    }

    package func problem(_ message: String, rule: String) -> Problem { Problem(path: path, line: line, message: message, rule: rule) }

    package func childPath(_ key: String) -> String { JSONPath.member(path, key) }

    /// The member named `key`; nil when absent or null.
    package func member(_ key: String) -> JSONCursor? {
        guard case .object(let members) = value,
              let member = members.last(where: { $0.key == key }) else { return nil }
        if case .null = member.value { return nil }
        return JSONCursor(member.value, path: childPath(key), line: member.line)
    }

    /// The members of an object (an error for any other kind of value).
    package func objectMembers() throws(Problem) -> [JSONMember] {
        guard case .object(let members) = value else { throw problem("expected an object, found \(value.kindDescription)", rule: "wrong-type") }
        return members
    }

    /// The elements of an array, each with its path.
    package func elements() throws(Problem) -> [JSONCursor] {
        guard case .array(let values) = value else { throw problem("expected an array, found \(value.kindDescription)", rule: "wrong-type") }
        return values.enumerated().map { JSONCursor($0.element, path: JSONPath.element(path, $0.offset), line: line) }
    }

    package func requiredMember(_ key: String) throws(Problem) -> JSONCursor {
        _ = try objectMembers()
        guard let member = member(key) else { throw JSONCursor(value, path: childPath(key), line: line).problem("required key \"\(key)\" is missing", rule: "missing-key") }
        return member
    }

    package func string() throws(Problem) -> String {
        guard case .string(let string) = value else { throw problem("expected a string, found \(value.kindDescription)", rule: "wrong-type") }
        return string
    }

    package func number() throws(Problem) -> Double {
        guard case .number(let number) = value else { throw problem("expected a number, found \(value.kindDescription)\(Self.quotedHint(value))", rule: "wrong-type") }
        return number
    }

    package func bool() throws(Problem) -> Bool {
        guard case .bool(let bool) = value else { throw problem("expected true or false, found \(value.kindDescription)\(Self.quotedHint(value))", rule: "wrong-type") }
        return bool
    }

    /// " (\"51.4\" is quoted: write 51.4 without quotes)" when a number or boolean was written as a string.
    package static func quotedHint(_ value: JSONValue) -> String {
        guard case .string(let text) = value else { return "" }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isNumber = (try? JSONParser().parse(Data(trimmed.utf8))).map { if case .number = $0 { true } else { false } } ?? false
        guard isNumber || trimmed == "true" || trimmed == "false" else { return "" }
        guard trimmed.count <= 40 else { return " (a quoted number: write it without quotes)" }
        return " (\"\(text)\" is quoted: write \(trimmed) without quotes)"
    }

    /// A mandatory, non-blank string member.
    package func requiredString(_ key: String) throws(Problem) -> String {
        let member = try requiredMember(key)
        let string = try member.string()
        // Blank means only spaces and tabs (CharacterSet.whitespaces), checked without Foundation's bridging.
        guard !string.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator })
        else { throw member.problem("is empty", rule: "empty-value") }
        return string
    }

    /// A mandatory identity string (town, full name, nickname): non-blank, and without control
    /// characters (U+0000-U+001F, U+007F-U+009F), which no name holds and which some tools cut at
    /// or refuse; a name that holds one is a data error, reported where it is.
    package func requiredIdentityString(_ key: String) throws(Problem) -> String {
        let string = try requiredString(key)
        if let control = string.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw try requiredMember(key).problem(
                "holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code); names may not hold control characters", rule: "control-character-in-name")
        }
        return string
    }

    /// An optional string member: nil when absent, null or empty.
    package func optionalString(_ key: String) throws(Problem) -> String? {
        guard let member = member(key) else { return nil }
        let string = try member.string()
        return string.isEmpty ? nil : string
    }

    /// An optional whole-number member.
    package func optionalInteger(_ key: String) throws(Problem) -> Int? {
        guard let member = member(key) else { return nil }
        let number = try member.number()
        guard number.rounded() == number, abs(number) < 1e15 else { throw member.problem("expected a whole number, found \(number)", rule: "wrong-type") }
        return Int(number)
    }

    package func optionalBool(_ key: String) throws(Problem) -> Bool? {
        guard let member = member(key) else { return nil }
        return try member.bool()
    }
}
