import Foundation
import GRDB
import HubGeoClusters
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The cluster index as the database keeps it: built by the import that changes the
/// organizations, in its transaction; read back by the views of `clusters(...)`.
@Suite("Stored cluster index")
struct ClusterStoreTests {
    static func world(_ store: OrganizationStore, zoom: Int) throws -> MapClusters {
        try store.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom, groupLimit: .max)
    }

    @Test("an import stores the index of its organizations: every zoom counts each organization once, views count what a brute force counts")
    func importStoresTheIndex() throws {
        let directory = try TemporaryDirectory()
        let organizations = ClusterFixtures.organizations(count: 4000, seed: 1)
        let store = try ClusterFixtures.importedStore(at: directory.path("hub.sqlite"), organizations)
        #expect(try store.database.read { try ClusterIndexTable.storedImportRun($0) } != nil)
        let index = try store.clusterIndex()
        #expect(index.organizationCount == 4000 && index.clusterCount > 100 && index.separationZoom > 10)
        // What is stored answers as an index built now from the rows.
        let built = try store.database.read { try ClusterIndexTable.build($0) }
        #expect(index.serialized() == built.serialized())

        // Row id to stable id, and the coordinates, by brute force over the table.
        let rows = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, stable_id, latitude, longitude FROM organization")
        }
        var stableIDOf: [Int64: String] = [:]
        var pointOf: [String: GeoPoint] = [:]
        for row in rows {
            stableIDOf[row[0]] = row[1]
            pointOf[row[1]] = GeoPoint(latitude: row[2], longitude: row[3])
        }
        var random = SplitMix64(seed: 2)
        for zoom in 0...(index.separationZoom + 1) {
            let view = try Self.world(store, zoom: zoom)
            #expect(view.organizationCount == 4000, "zoom \(zoom)")
            // Each organization in exactly one item; a location lists exactly its organizations, all at its point.
            var seen: [String: Int] = [:]
            var itemOf: [String: MapClusters.Item] = [:]
            for entry in view.items {
                let leaves = try index.leaves(of: entry.item.id, limit: .max).map { stableIDOf[$0]! }
                #expect(leaves.count == entry.item.count)
                for leaf in leaves {
                    seen[leaf, default: 0] += 1
                    itemOf[leaf] = entry
                }
                if entry.item.kind == .cluster {
                    #expect(entry.organizations.isEmpty)
                } else {
                    #expect(Set(entry.organizations.map(\.stableID)) == Set(leaves))
                    #expect(entry.organizations.allSatisfy { $0.coordinates == pointOf[$0.stableID] })
                    #expect(Set(entry.organizations.map { "\($0.coordinates)" }).count == 1)
                    #expect((entry.item.kind == .organization) == (entry.item.count == 1))
                }
            }
            #expect(seen.count == 4000 && seen.values.allSatisfy { $0 == 1 }, "zoom \(zoom)")
            // A view holds the items whose point is in it: its counts add up to the organizations
            // whose item at this zoom lies in the view, counted here one organization at a time.
            for _ in 0..<20 {
                let anchor = organizations.randomElement(using: &random)!.coordinates
                let half = 360 / Double(1 << min(zoom, 20)) * Double.random(in: 0.5..<2, using: &random)
                let south = max(-85, anchor.latitude - half / 2), north = min(85, anchor.latitude + half / 2)
                let west = max(-180, anchor.longitude - half), east = min(180, anchor.longitude + half)
                let found = try store.clusters(west: west, south: south, east: east, north: north, zoom: zoom)
                let expected = pointOf.keys.filter { id in
                    let item = itemOf[id]!.item
                    return item.latitude >= south && item.latitude <= north && item.longitude >= west && item.longitude <= east
                }.count
                #expect(found.organizationCount == expected, "zoom \(zoom), view \(west) \(south) \(east) \(north)")
            }
        }
    }

    @Test("co-located organizations are one group at every zoom that splits nothing; a cluster's expansion zoom splits it")
    func groupsAndExpansionZooms() throws {
        let directory = try TemporaryDirectory()
        let organizations = ClusterFixtures.organizations(count: 3000, seed: 3)
        let store = try ClusterFixtures.importedStore(at: directory.path("hub.sqlite"), organizations)
        let index = try store.clusterIndex()
        // The groups, by brute force: organizations sharing exact coordinates.
        let shared = Dictionary(grouping: organizations, by: { "\($0.coordinates)" }).filter { $0.value.count > 1 }
        #expect(shared.count > 50)
        let top = try Self.world(store, zoom: index.separationZoom)
        let groups = top.items.filter { $0.item.kind == .colocatedGroup }
        #expect(groups.count == shared.count)
        for group in groups {
            let members = try #require(shared["\(group.organizations[0].coordinates)"])
            #expect(group.item.count == members.count)
            #expect(group.organizations.map(\.name) == members.map(\.fullName).sorted())
            #expect(group.item.expansionZoom == nil)
        }
        // Clusters of a mid zoom: at their expansion zoom, the items holding their organizations are two or more.
        var checked = 0
        for entry in try Self.world(store, zoom: 6).items where entry.item.kind == .cluster {
            let expansion = try #require(entry.item.expansionZoom)
            let leaves = Set(try index.leaves(of: entry.item.id, limit: .max))
            let box = entry.item.bounds
            let below = try store.clusters(west: box.west - 1e-4, south: box.south - 1e-4, east: box.east + 1e-4,
                                           north: box.north + 1e-4, zoom: expansion)
            #expect(!below.items.contains { $0.item.id == entry.item.id })
            let holding = try below.items.filter { !Set(try index.leaves(of: $0.item.id, limit: .max)).isDisjoint(with: leaves) }
            #expect(holding.count >= 2, "cluster \(entry.item.id) at zoom \(expansion)")
            #expect(holding.reduce(0) { $0 + $1.item.count } == entry.item.count)
            checked += 1
        }
        #expect(checked > 20)
    }

    @Test("an unchanged re-import keeps the stored index; a changed one stores a new one")
    func reimports() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("hub.sqlite")
        var organizations = ClusterFixtures.organizations(count: 500, seed: 4)
        let store = try ClusterFixtures.importedStore(at: path, organizations)
        let first = try store.database.read { try ClusterIndexTable.storedImportRun($0) }
        let firstVersion = try store.importVersion()
        try ClusterFixtures.importedStore(at: path, organizations)
        #expect(try store.database.read { try ClusterIndexTable.storedImportRun($0) } == first, "nothing changed: not rebuilt")
        #expect(try store.importVersion() != firstVersion, "the import version follows every import")
        organizations.removeLast(100)
        organizations[0].coordinates = GeoPoint(latitude: -45, longitude: 170)
        try ClusterFixtures.importedStore(at: path, organizations)
        #expect(try store.database.read { try ClusterIndexTable.storedImportRun($0) } != first)
        #expect(try Self.world(store, zoom: 0).organizationCount == 400)
        let near = try store.clusters(west: 169.99, south: -45.01, east: 170.01, north: -44.99, zoom: 20)
        #expect(near.items.flatMap(\.organizations).map(\.name) == [organizations[0].fullName])
    }

    @Test("a database without a stored index (an older hubgeo's) is clustered from its rows; an import stores one")
    func olderDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("hub.sqlite")
        let organizations = ClusterFixtures.organizations(count: 300, seed: 5)
        let store = try ClusterFixtures.importedStore(at: path, organizations)
        let expected = try store.clusterIndex().serialized()
        try store.database.write { db in
            try db.execute(sql: "DROP TABLE cluster_index; DELETE FROM grdb_migrations WHERE identifier = 'v4 cluster index'")
        }
        let reader = try OrganizationStore(path: path, access: .readOnly)
        #expect(try reader.clusterIndex().serialized() == expected)
        #expect(try Self.world(reader, zoom: 3).organizationCount == 300)
        // The next import (nothing changed) brings the schema up to date and stores the index.
        try ClusterFixtures.importedStore(at: path, organizations)
        #expect(try store.database.read { try ClusterIndexTable.storedImportRun($0) } != nil)
        #expect(try store.clusterIndex().serialized() == expected)
    }

    @Test("a co-located group larger than the limit lists its first organizations by name, the same at every request, and those of the new rows after an import")
    func largeGroups() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("hub.sqlite")
        var organizations = ClusterFixtures.organizations(count: 300, seed: 7)
        for i in 0..<150 { organizations[i].coordinates = GeoPoint(latitude: 10, longitude: 20) }
        let store = try ClusterFixtures.importedStore(at: path, organizations)
        let cache = ClusterIndexCache()
        func group() throws -> [String] {
            let view = try store.clusters(west: 19.9, south: 9.9, east: 20.1, north: 10.1, zoom: 30, groupLimit: 40, cache: cache)
            let groups = view.items.filter { $0.item.kind == .colocatedGroup }
            #expect(groups.count == 1 && groups.first?.item.count == 150)
            return groups.first?.organizations.map(\.name) ?? []
        }
        let expected = Array(organizations.prefix(150).map(\.fullName).sorted().prefix(40))
        #expect(try group() == expected)
        #expect(try group() == expected, "the same again (kept with the index)")
        // A rename that sorts first: the next import's index, and its group, show it.
        organizations[149].identity = OrganizationIdentity(town: organizations[149].town, fullName: "AAA first of the group")
        try ClusterFixtures.importedStore(at: path, organizations)
        #expect(try group() == Array(organizations.prefix(150).map(\.fullName).sorted().prefix(40)))
        #expect(try group().first == "AAA first of the group")
    }

    @Test("a view past the limit stops there, marked truncated")
    func limit() throws {
        let directory = try TemporaryDirectory()
        let store = try ClusterFixtures.importedStore(at: directory.path("hub.sqlite"), ClusterFixtures.organizations(count: 400, seed: 6))
        let all = try Self.world(store, zoom: 30)
        #expect(!all.truncated && all.items.count > 300)
        let cut = try store.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 30, limit: 50)
        #expect(cut.truncated && cut.items.count == 50)
        #expect(cut.items.map(\.item.id) == all.items.prefix(50).map(\.item.id))
    }
}
