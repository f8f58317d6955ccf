import GRDB
@testable import HubGeoDatabase
@testable import HubGeoImport
import HubGeoModel
import HubGeoTestSupport
import Testing

/// The packed R*Tree of a bulk load: SQLite's own checker accepts it, every point is in it with
/// a box that holds it, boxes find what a scan finds, and a later sync keeps it valid.
@Suite("Packed R*Tree of a bulk load")
struct RTreePackerTests {
    static func check(_ store: OrganizationStore) throws -> (check: String, entries: Int, rows: Int, outside: Int) {
        try store.database.read { db in
            (try String.fetchOne(db, sql: "SELECT rtreecheck('idx_organization_geom')") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_organization_geom") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? -2,
             try Int.fetchOne(db, sql: """
                SELECT count(*) FROM organization o JOIN idx_organization_geom i ON i.pkid = o.id
                WHERE i.xmin > o.longitude OR i.xmax < o.longitude OR i.ymin > o.latitude OR i.ymax < o.latitude
                """) ?? -1)
        }
    }

    @Test func bulkLoadThenSyncKeepsAValidIndexThatFindsWhatAScanFinds() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organizations = StoreFixtures.randomOrganizations(count: 20_000, seed: 77)
        let store = try StoreFixtures.store(in: directory, organizations)
        var state = try Self.check(store)
        #expect(state.check == "ok")
        #expect(state.entries == 20_000 && state.rows == 20_000 && state.outside == 0)

        var random = SplitMix64(seed: 78)
        for _ in 0..<20 {
            let west = Double.random(in: -180...170, using: &random), south = Double.random(in: -90...80, using: &random)
            let box = (west: west, south: south, east: west + Double.random(in: 0.1...10, using: &random),
                       north: south + Double.random(in: 0.1...10, using: &random))
            let found = Set(try store.within(west: box.west, south: box.south, east: box.east, north: box.north).map(\.organization.identity))
            let scanned = Set(organizations.filter {
                (box.west...box.east).contains($0.coordinates.longitude) && (box.south...box.north).contains($0.coordinates.latitude)
            }.map(\.identity))
            #expect(found == scanned)
        }

        // A sync: a tenth moved, a tenth removed, a thousand added; the index follows.
        var next = organizations
        for index in stride(from: 0, to: next.count, by: 10) { next[index].coordinates.latitude = min(89, next[index].coordinates.latitude + 0.5) }
        next = next.enumerated().filter { $0.offset % 10 != 5 }.map(\.element)
        next += StoreFixtures.randomOrganizations(count: 1_000, seed: 79).map {
            var added = $0
            added.identity.town = "Elsewhere"
            return added
        }
        try store.importData(StoreFixtures.data(next))
        state = try Self.check(store)
        #expect(state.check == "ok")
        #expect(state.entries == next.count && state.rows == next.count && state.outside == 0)
    }

    @Test func outwardRoundingHoldsThePoint() {
        for value in [0.1, -0.1, 51.39184, -179.9999999, 179.99999999, 90, -90, 1e-30] {
            #expect(Double(RTreePacker.down(value)) <= value && Double(RTreePacker.up(value)) >= value)
        }
    }
}
