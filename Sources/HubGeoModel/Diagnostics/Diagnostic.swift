/// A finding about a data file: where it is (file, JSON path, line) and what is wrong.
public struct Diagnostic: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        case error
        case warning

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    public var file: String
    /// The JSON path inside the file, e.g. `clubs[3].coordinates.latitude`; empty for the whole file.
    public var jsonPath: String
    public var line: Int?
    public var message: String

    public init(severity: Severity, file: String, jsonPath: String, line: Int? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.jsonPath = jsonPath
        self.line = line
        self.message = message
    }

    /// `file:line: JSON path: severity: message` (the line and path only when known).
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if !jsonPath.isEmpty { location += ": \(jsonPath)" }
        return "\(location): \(severity.rawValue): \(message)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.file, lhs.line ?? 0, lhs.jsonPath, lhs.message) < (rhs.file, rhs.line ?? 0, rhs.jsonPath, rhs.message)
    }
}
