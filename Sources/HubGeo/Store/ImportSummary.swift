/// What an import changed in the database.
public struct ImportSummary: Sendable {
    /// At most this many identities are listed in `added`, `changed` and `removed` each
    /// (the counts are always complete): a first import of a million organizations should
    /// not hold a million names.
    public static let listLimit = 10_000

    /// The organizations added, changed and removed (the first ``listLimit`` of each, sorted).
    public var added: [OrganizationIdentity] = []
    public var changed: [OrganizationIdentity] = []
    public var removed: [OrganizationIdentity] = []
    public var addedCount = 0
    public var changedCount = 0
    public var removedCount = 0
    public var unchanged = 0
    /// The number of organizations in the database after the import.
    public var total = 0

    public init() {}

    mutating func noteAdded(_ identity: OrganizationIdentity) {
        addedCount += 1
        if added.count < Self.listLimit { added.append(identity) }
    }

    mutating func noteChanged(_ identity: OrganizationIdentity) {
        changedCount += 1
        if changed.count < Self.listLimit { changed.append(identity) }
    }

    mutating func noteRemoved(_ identity: OrganizationIdentity) {
        removedCount += 1
        if removed.count < Self.listLimit { removed.append(identity) }
    }
}
