/// A parsed JSON value. Objects keep their members in document order (duplicates included),
/// so that diagnostics can point at exactly what the file says.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The value of the last member named `key` (as JSON decoders do), or nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// A short name of the value's kind, for error messages ("a string", "an object").
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object, with the line it starts on.
package struct JSONMember: Sendable, Equatable {
    package var key: String
    package var value: JSONValue
    package var line: Int

    package init(key: String, value: JSONValue, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}
