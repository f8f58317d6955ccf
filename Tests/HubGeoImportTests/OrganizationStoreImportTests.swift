import GRDB
@testable import HubGeoDatabase
@testable import HubGeoImport
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

@Suite("Importing is a sync in one transaction")
struct OrganizationStoreImportTests {
    @Test func reimportAddsChangesAndRemoves() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let first = try store.importData(StoreFixtures.data([
            StoreFixtures.organization("Stays", 51, 5), StoreFixtures.organization("Moves", 52, 5),
            StoreFixtures.organization("Goes", 53, 5),
        ]))
        #expect(first.added.count == 3)
        let second = try store.importData(StoreFixtures.data([
            StoreFixtures.organization("Stays", 51, 5), StoreFixtures.organization("Moves", 52.5, 5),
            StoreFixtures.organization("New", 54, 5),
        ]))
        #expect(second.added.map(\.fullName) == ["New"])
        #expect(second.changed.map(\.fullName) == ["Moves"])
        #expect(second.removed.map(\.fullName) == ["Goes"])
        #expect(second.unchanged == 1)
        let names = try store.all().map(\.organization.fullName)
        #expect(names == ["Moves", "New", "Stays"])
        // The spatial index follows the move.
        #expect(try store.near(GeoPoint(latitude: 52.5, longitude: 5), radiusMeters: 1_000).map(\.organization.fullName) == ["Moves"])
        #expect(try store.near(GeoPoint(latitude: 53, longitude: 5), radiusMeters: 1_000).isEmpty)
    }

    @Test func failedImportLeavesThePreviousDatabaseIntact() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [StoreFixtures.organization("Old", 51, 5)])
        // Two records with one identity violate the UNIQUE constraint halfway through the import.
        let broken = StoreFixtures.data([
            StoreFixtures.organization("New", 52, 5), StoreFixtures.organization("Twin", 53, 5),
            StoreFixtures.organization("Twin", 53, 5),
        ])
        #expect(throws: (any Error).self) { try store.importData(broken) }
        #expect(try store.all().map(\.organization.fullName) == ["Old"])
        #expect(try store.statistics().clubs == 1)
    }

    @Test func embeddedDataRoundTripsThroughTheDatabase() throws {
        let directory = try TestPaths.temporaryDirectory()
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let summary = try store.importData(data)
        #expect(summary.added.count == 131)
        let again = try store.importData(data)
        #expect(again.added.isEmpty && again.changed.isEmpty && again.removed.isEmpty && again.unchanged == 131)

        let waalre = try store.organization(named: "fgWaalre")
        let loaded = try #require(data.organizations.first { $0.nickName == "fgWaalre" })
        #expect(waalre == loaded, "every field, remark, member and override survives the database")

        let statistics = try store.statistics()
        #expect(statistics.clubs == 89 && statistics.museums == 42)
        #expect(statistics.source == "embedded:root_.level1.json")
    }

    @Test func databaseIsSpatiaLiteWithAPointGeometryAndSpatialIndexInWALMode() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [StoreFixtures.organization("One", 51, 5)])
        try store.database.read { db in
            let column = try Row.fetchOne(db, sql: "SELECT geometry_type, srid, spatial_index_enabled FROM geometry_columns WHERE f_table_name = 'organization'")
            #expect(column?["geometry_type"] == 1)  // POINT XY
            #expect(column?["srid"] == 4326)
            #expect(column?["spatial_index_enabled"] == 1)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try String.fetchOne(db, sql: "SELECT AsText(geom) FROM organization") == "POINT(5 51)")
        }
    }
}
