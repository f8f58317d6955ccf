import HubGeoModel


/// What an import changed in the database.
public struct ImportSummary: Sendable {
    /// At most this many identities are listed in `added`, `changed` and `removed` each
    /// (the counts are always complete): a first import of a million organizations should
    /// not hold a million names.
    package static let listLimit = 10_000
    /// At most this many added and removed organizations are compared for probable renames.
    static let renameCandidateLimit = 100_000
    /// An added and a removed organization with the same full name or nickname closer than this
    /// are reported as a probable rename.
    package static let renameDistanceMeters = 1_000.0

    /// The organizations added, changed and removed (the first `listLimit` of each, sorted).
    public var added: [OrganizationIdentity] = []
    /// The organizations changed (the first 10,000, sorted).
    public var changed: [OrganizationIdentity] = []
    /// The organizations removed (the first 10,000, sorted).
    public var removed: [OrganizationIdentity] = []
    /// How many organizations were added.
    public var addedCount = 0
    /// How many organizations were changed.
    public var changedCount = 0
    /// How many organizations were removed.
    public var removedCount = 0
    /// How many organizations were read and found as they were.
    public var unchanged = 0
    /// The number of organizations in the database after the import.
    public var total = 0
    /// Removals and additions that look like one organization whose identity (town + full name)
    /// was edited: the same full name or nickname, within `renameDistanceMeters`.
    public var probableRenames: [ProbableRename] = []
    /// What the import rewrote because it could not read it (a damaged database): rows whose
    /// values are not what hubgeo writes, a stored cluster index that did not load.
    public var repairs: [String] = []

    /// An empty summary: nothing added, changed or removed.
    public init() {}

    /// A removed organization that an added one probably renames.
    public struct ProbableRename: Sendable, Equatable {
        /// The organization removed.
        public var removed: OrganizationIdentity
        /// The organization added in its place.
        public var added: OrganizationIdentity
        /// True when the full name is the same (the town changed); else the nickname is.
        public var sameFullName: Bool
        /// The distance between the two, in metres.
        public var distanceMeters: Double
    }

    /// What the rename check needs of an organization.
    package struct Place {
        var identity: OrganizationIdentity
        var nickName: String
        var coordinates: GeoPoint

        init(identity: OrganizationIdentity, nickName: String, coordinates: GeoPoint) {
            self.identity = identity
            self.nickName = nickName
            self.coordinates = coordinates
        }

        package init(_ organization: Organization) {
            self.init(identity: organization.identity, nickName: organization.nickName, coordinates: organization.coordinates)
        }
    }

    /// Each added organization with the same full name or nickname as a removed one, within
    /// ``renameDistanceMeters`` (the geodesic distance on WGS84, ``Geodesic``): the import's
    /// probable renames, and `hubgeo diff`'s.
    package static func probableRenames(added: [Place], removed: [Place]) -> [ProbableRename] {
        guard !added.isEmpty, !removed.isEmpty else { return [] }
        var byName: [String: [Int]] = [:]
        for (position, place) in removed.enumerated() {
            byName["f:" + place.identity.fullName, default: []].append(position)
            byName["n:" + place.nickName, default: []].append(position)
        }
        var renames: [ProbableRename] = []
        for place in added {
            let candidates = (byName["f:" + place.identity.fullName] ?? []) + (byName["n:" + place.nickName] ?? [])
            var best: ProbableRename?
            for position in Set(candidates) {
                let old = removed[position]
                let meters = Geodesic.distance(old.coordinates, place.coordinates)
                guard meters <= renameDistanceMeters, meters < best?.distanceMeters ?? .infinity else { continue }
                best = ProbableRename(removed: old.identity, added: place.identity,
                                      sameFullName: old.identity.fullName == place.identity.fullName, distanceMeters: meters)
            }
            if let best { renames.append(best) }
        }
        return renames.sorted { ($0.added, $0.removed) < ($1.added, $1.removed) }
    }

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
