/// What an import changed in the database.
public struct ImportSummary: Sendable {
    public var added: [OrganizationIdentity] = []
    public var changed: [OrganizationIdentity] = []
    public var removed: [OrganizationIdentity] = []
    public var unchanged = 0
    /// The number of organizations in the database after the import.
    public var total = 0

    public init() {}
}
