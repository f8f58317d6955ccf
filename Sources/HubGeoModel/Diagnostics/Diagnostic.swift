/// A finding about a data file: where it is (file, JSON path, line and column), what is wrong,
/// and the stable id of its kind (``DiagnosticRule``).
public struct Diagnostic: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Codable, Comparable {
        /// An error: `validate` fails.
        case error
        /// A warning: `validate` fails only with `--strict`.
        case warning

        /// Errors come before warnings.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    /// An error or a warning.
    public var severity: Severity
    /// What kind of finding this is.
    public var rule: DiagnosticRule
    /// The file, as the user named it (a path or URL).
    public var file: String
    /// The JSON path inside the file, e.g. `clubs[3].coordinates.latitude`; empty for the whole file.
    public var jsonPath: String
    /// Where the JSON path starts (1-based; the column counts bytes, as the JSON parser does).
    public var line: Int?
    /// The column where the JSON path starts (1-based, in bytes).
    public var column: Int?
    /// Where the value at the JSON path ends (its last character), when known.
    public var endLine: Int?
    /// The column where the value ends, when known.
    public var endColumn: Int?
    /// What is wrong, in words.
    public var message: String
    /// Coordinates to use instead, when `validate --geocode` found some (``CoordinateSuggestion``).
    public var suggestion: CoordinateSuggestion?

    /// A finding of `rule` at `file`, `jsonPath`, `line` and `column`.
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

    /// Orders by file, line, column, JSON path, message and rule.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.file, lhs.line ?? 0, lhs.column ?? 0, lhs.jsonPath, lhs.message, lhs.rule)
            < (rhs.file, rhs.line ?? 0, rhs.column ?? 0, rhs.jsonPath, rhs.message, rhs.rule)
    }
}
