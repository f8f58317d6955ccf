import HubGeoDatabase
import HubGeoModel

/// `hubgeo diff`: how one Photo Club Hub tree differs from another, organization by organization
/// (by identity: town + full name): added, removed, probable renames (as `import` reports them:
/// a removed and an added organization with the same full name or nickname within 1 km), moved
/// (coordinates changed; largest distance first) and the other changed fields.
package struct TreeDiff: Sendable, Codable, Equatable {
    /// An organization that is only on one side.
    package struct Side: Sendable, Codable, Equatable {
        package var type: OrganizationType
        package var identity: OrganizationIdentity
        package var coordinates: GeoPoint
    }

    package struct Rename: Sendable, Codable, Equatable {
        package var type: OrganizationType
        package var old: OrganizationIdentity
        package var new: OrganizationIdentity
        /// True when the full name is the same (the town changed); else the nickname is.
        package var sameFullName: Bool
        package var distanceMeters: Double
    }

    package struct Move: Sendable, Codable, Equatable {
        package var type: OrganizationType
        package var identity: OrganizationIdentity
        package var old: GeoPoint
        package var new: GeoPoint
        /// The geodesic distance on WGS84, in kilometres.
        package var kilometers: Double
    }

    package struct Change: Sendable, Codable, Equatable {
        package var type: OrganizationType
        package var identity: OrganizationIdentity
        package var fields: [FieldChange]
    }

    package var added: [Side] = []
    package var removed: [Side] = []
    package var renamed: [Rename] = []
    /// Largest distance first.
    package var moved: [Move] = []
    package var changed: [Change] = []
    /// Organizations in both, the same in every compared field.
    package var unchanged = 0

    package var isEqual: Bool { added.isEmpty && removed.isEmpty && renamed.isEmpty && moved.isEmpty && changed.isEmpty }

    /// Compares `old` with `new` (the first declaration of an identity counts on each side).
    package init(old: [Organization], new: [Organization]) {
        var oldByIdentity: [OrganizationIdentity: Organization] = [:]
        for organization in old where oldByIdentity[organization.identity] == nil { oldByIdentity[organization.identity] = organization }
        var newByIdentity: [OrganizationIdentity: Organization] = [:]
        for organization in new where newByIdentity[organization.identity] == nil { newByIdentity[organization.identity] = organization }

        var addedOnes = newByIdentity.values.filter { oldByIdentity[$0.identity] == nil }
        var removedOnes = oldByIdentity.values.filter { newByIdentity[$0.identity] == nil }
        let renames = ImportSummary.probableRenames(added: addedOnes.map(ImportSummary.Place.init),
                                                    removed: removedOnes.map(ImportSummary.Place.init))
        // One removed organization is the rename of one added one at most.
        var usedOld: Set<OrganizationIdentity> = [], usedNew: Set<OrganizationIdentity> = []
        for rename in renames where !usedOld.contains(rename.removed) && !usedNew.contains(rename.added) {
            usedOld.insert(rename.removed)
            usedNew.insert(rename.added)
            renamed.append(Rename(type: newByIdentity[rename.added]?.type ?? .club, old: rename.removed, new: rename.added,
                                  sameFullName: rename.sameFullName, distanceMeters: rename.distanceMeters))
        }
        addedOnes.removeAll { usedNew.contains($0.identity) }
        removedOnes.removeAll { usedOld.contains($0.identity) }
        added = addedOnes.map { Side(type: $0.type, identity: $0.identity, coordinates: $0.coordinates) }.sorted { $0.identity < $1.identity }
        removed = removedOnes.map { Side(type: $0.type, identity: $0.identity, coordinates: $0.coordinates) }.sorted { $0.identity < $1.identity }

        for (identity, before) in oldByIdentity {
            guard let after = newByIdentity[identity] else { continue }
            var same = true
            if before.coordinates != after.coordinates {
                same = false
                moved.append(Move(type: after.type, identity: identity, old: before.coordinates, new: after.coordinates,
                                  kilometers: Geodesic.distance(before.coordinates, after.coordinates) / 1000))
            }
            let fields = FieldChange.changes(from: before, to: after, coordinates: false)
            if !fields.isEmpty {
                same = false
                changed.append(Change(type: after.type, identity: identity, fields: fields))
            }
            if same { unchanged += 1 }
        }
        moved.sort { ($0.kilometers, $1.identity) > ($1.kilometers, $0.identity) }
        changed.sort { $0.identity < $1.identity }
    }

    /// "2 added, 4 removed, 0 probable renames, 1 moved, 6 changed, 125 unchanged".
    package var summary: String {
        "\(added.count) added, \(removed.count) removed, \(counted(renamed.count, "probable rename")), "
            + "\(moved.count) moved, \(changed.count) changed, \(unchanged) unchanged"
    }
}
