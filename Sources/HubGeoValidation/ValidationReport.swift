import HubGeoModel

/// What `Validator` found: every diagnostic, sorted, and what was checked.
public struct ValidationReport: Sendable, Codable, Equatable {
    /// Errors and warnings, sorted by file, line and JSON path.
    public var diagnostics: [Diagnostic]
    /// Every file read (or tried), sorted.
    public var files: [String]
    /// Organizations declared (and readable) in the Level 1 trees checked.
    public var organizations: Int
    /// The Level 0 files whose languages and expertises were used for the checks.
    public var level0Sources: [String]
    /// What `--geocode` did, when it ran.
    public var townCheck: TownCheck.Summary?

    /// A report of these diagnostics, files, organizations, Level 0 sources and town check.
    public init(diagnostics: [Diagnostic], files: [String], organizations: Int, level0Sources: [String],
                townCheck: TownCheck.Summary? = nil) {
        self.diagnostics = diagnostics
        self.files = files
        self.organizations = organizations
        self.level0Sources = level0Sources
        self.townCheck = townCheck
    }

    /// The number of errors.
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    /// The number of warnings.
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// True when the data should be rejected: an error, or with `strict` any warning.
    public func failed(strict: Bool) -> Bool { errorCount > 0 || (strict && warningCount > 0) }

    /// "12 files, 131 organizations: 3 errors, 17 warnings".
    public var summary: String {
        "\(counted(files.count, "file")), \(counted(organizations, "organization")): "
            + "\(counted(errorCount, "error")), \(counted(warningCount, "warning"))"
    }
}
