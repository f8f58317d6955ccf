/// A finding about a data file: where it is (file, JSON path, line and column), what is wrong,
/// and the stable id of its kind (``DiagnosticRule``).
public struct Diagnostic: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        case error
        case warning

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    /// What kind of finding this is.
    public var rule: DiagnosticRule
    public var file: String
    /// The JSON path inside the file, e.g. `clubs[3].coordinates.latitude`; empty for the whole file.
    public var jsonPath: String
    /// Where the JSON path starts (1-based; the column counts bytes, as the JSON parser does).
    public var line: Int?
    public var column: Int?
    /// Where the value at the JSON path ends (its last character), when known.
    public var endLine: Int?
    public var endColumn: Int?
    public var message: String

    public init(severity: Severity, rule: DiagnosticRule, file: String, jsonPath: String, line: Int? = nil,
                column: Int? = nil, message: String) {
        self.severity = severity
        self.rule = rule
        self.file = file
        self.jsonPath = jsonPath
        self.line = line
        self.column = column
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
        (lhs.file, lhs.line ?? 0, lhs.column ?? 0, lhs.jsonPath, lhs.message, lhs.rule)
            < (rhs.file, rhs.line ?? 0, rhs.column ?? 0, rhs.jsonPath, rhs.message, rhs.rule)
    }
}
