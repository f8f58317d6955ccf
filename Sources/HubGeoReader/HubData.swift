import HubGeoModel

/// Everything read from a Level 1 include tree and its Level 2 files, ready to import.
public struct HubData: Sendable {
    /// The organizations, each with its Level 2 file merged in, in the order they were read.
    public var organizations: [Organization]
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

    package init(organizations: [Organization], diagnostics: [Diagnostic], level1Files: [String], level2Files: [String],
                 orphanLevel2Files: [String], source: String) {
        self.organizations = organizations
        self.diagnostics = diagnostics
        self.level1Files = level1Files
        self.level2Files = level2Files
        self.orphanLevel2Files = orphanLevel2Files
        self.source = source
    }

    /// Every override that a Level 2 file applied, with its organization.
    public var appliedOverrides: [(organization: OrganizationIdentity, override: FieldOverride)] {
        organizations.flatMap { organization in organization.overrides.map { (organization.identity, $0) } }
    }
}
