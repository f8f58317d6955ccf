import HubGeoModel

/// What a streaming load read besides the organizations it handed on (see
/// ``HubLoader/load(root:level2Files:each:)``): the files, the diagnostics and the orphans, as
/// in ``HubData``, which also holds the organizations.
public struct LoadSummary: Sendable {
    /// Warnings: skipped records, orphan Level 2 files, duplicates. Errors throw instead.
    public var diagnostics: [Diagnostic]
    /// The Level 1 files read, in include order.
    public var level1Files: [String]
    /// The Level 2 files merged into a club.
    public var level2Files: [String]
    /// The Level 2 files that match no Level 1 organization.
    public var orphanLevel2Files: [String]
    /// Where the data came from (the root file or URL as given).
    public var source: String

    /// Nothing read yet from `source`.
    package init(source: String) {
        self.init(diagnostics: [], level1Files: [], level2Files: [], orphanLevel2Files: [], source: source)
    }

    init(diagnostics: [Diagnostic], level1Files: [String], level2Files: [String], orphanLevel2Files: [String], source: String) {
        self.diagnostics = diagnostics
        self.level1Files = level1Files
        self.level2Files = level2Files
        self.orphanLevel2Files = orphanLevel2Files
        self.source = source
    }
}

extension HubData {
    /// What this data read besides its organizations.
    public var summary: LoadSummary {
        LoadSummary(diagnostics: diagnostics, level1Files: level1Files, level2Files: level2Files,
                    orphanLevel2Files: orphanLevel2Files, source: source)
    }

    /// The data of a streamed load: the organizations it handed on, and what else it read.
    public init(organizations: [Organization], summary: LoadSummary) {
        self.init(organizations: organizations, diagnostics: summary.diagnostics, level1Files: summary.level1Files,
                  level2Files: summary.level2Files, orphanLevel2Files: summary.orphanLevel2Files, source: summary.source)
    }
}
