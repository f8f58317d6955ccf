import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The geocode cache's own tables and migration, in a real SpatiaLite file.
@Suite("Geocode cache")
struct GeocodeCacheTests {
    static func entry(_ language: String, town: String) -> GeocodeCacheEntry {
        GeocodeCacheEntry(coordinate: GeocodeCoordinate(GeoPoint(latitude: 51.42398, longitude: 5.4501)), language: language,
                          endpoint: "http://127.0.0.1:1", zoom: 14, status: .found, town: town, townKey: "city",
                          country: "Nederland", countryCode: "nl", source: .request, rawResponse: "{}",
                          fetchedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test("A database made before the cache had its own migration keeps its answers and gains the new tables")
    func migratesWithoutLosingAnswers() throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.path("hub.sqlite")
        do {
            let store = try OrganizationStore(path: path)
            try store.geocodeCache.save(Self.entry("nl", town: "Eindhoven"))
            // Back to the schema of that time: the organizations' migration and "v2 geocode cache" only.
            try store.database.write { db in
                try db.execute(sql: """
                    DROP TABLE geocode_country_names; DROP TABLE geocode_town_names; DROP TABLE geocode_search; DROP TABLE document_cache; DROP TABLE cluster_index;
                    DROP TRIGGER organization_writes_insert; DROP TRIGGER organization_writes_update; DROP TRIGGER organization_writes_delete;
                    DROP TABLE organization_writes; DROP TABLE import_document; DROP TABLE import_diagnostic;
                    \(OrganizationWrites.relationTables.flatMap { table in ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_writes_\($0);" } }
                        .joined(separator: " "))
                    ALTER TABLE import_run DROP COLUMN request;
                    DROP TABLE source_document; ALTER TABLE organization DROP COLUMN level1_document;
                    ALTER TABLE organization DROP COLUMN content_digest; ALTER TABLE organization DROP COLUMN sources_digest;
                    ALTER TABLE organization ADD COLUMN level1_source TEXT NOT NULL DEFAULT '';
                    ALTER TABLE organization ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
                    \(ImportStatistics.columns.map { "ALTER TABLE import_run DROP COLUMN \($0);" }.joined(separator: " "))
                    DELETE FROM grdb_migrations WHERE identifier NOT IN ('v1 organizations', 'v2 geocode cache');
                    """)
            }
        }
        let store = try OrganizationStore(path: path)
        let cache = store.geocodeCache
        #expect(try cache.count() == 1)
        #expect(try cache.entry(Self.entry("nl", town: "").coordinate, language: "nl", endpoint: "http://127.0.0.1:1", zoom: 14)
                == Self.entry("nl", town: "Eindhoven"))
        #expect(try cache.countryName(code: "nl", language: "nl", endpoint: "http://127.0.0.1:1") == "Nederland")
        try cache.saveCountryNamesAnswer(code: "nl", language: "nl", endpoint: "http://127.0.0.1:1", raw: "{}")
        #expect(try cache.countryNamesAnswer(code: "nl", endpoint: "http://127.0.0.1:1")?.language == "nl")
        let migrations = try store.database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        #expect(migrations == ["document cache v1", "geocode cache v3: names of countries and towns", "geocode cache v4: forward searches",
                               "v1 organizations", "v2 geocode cache",
                               "v3 fewer indexes", "v4 cluster index", "v5 import statistics", "v6 organization writes",
                               "v7 import documents", "v8 each fact once"])
    }

    @Test("The tables the cache owns, with the columns queries read")
    func tables() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let columns = try store.database.read { db in
            try ["geocode_cache", "geocode_country", "geocode_country_names", "geocode_town_names", "geocode_search"].map { table in
                try db.columns(in: table).map(\.name)
            }
        }
        #expect(columns == [
            ["latitude_e6", "longitude_e6", "language", "endpoint", "zoom", "status", "town", "town_key", "country",
             "country_code", "source", "raw_response", "fetched_at"],
            ["endpoint", "country_code", "language", "country", "learned_at"],
            ["endpoint", "country_code", "language", "raw_response", "learned_at"],
            ["latitude_e6", "longitude_e6", "endpoint", "zoom", "language", "raw_response", "fetched_at"],
            ["endpoint", "query", "language", "viewbox", "result_limit", "raw_response", "fetched_at"],
        ])
        // One migrator makes every table of the file, in the order they were first made.
        #expect(DatabaseSchema.migrator.migrations == [
            "v1 organizations", "v2 geocode cache", "v3 fewer indexes",
            "geocode cache v3: names of countries and towns", "document cache v1", "v4 cluster index", "v5 import statistics",
            "v6 organization writes", "geocode cache v4: forward searches", "v7 import documents", "v8 each fact once",
        ])
    }

    @Test("Saving an asked answer remembers its country name; a derived one does not")
    func countryNamesFromAskedAnswers() throws {
        let directory = try TestPaths.temporaryDirectory()
        let cache = try OrganizationStore(path: directory.path("hub.sqlite")).geocodeCache
        var derived = Self.entry("de", town: "Eindhoven")
        derived.source = .derived
        derived.country = "Niederlande"
        try cache.save(derived)
        try cache.save(Self.entry("nl", town: "Eindhoven"))
        #expect(try cache.countryName(code: "nl", language: "nl", endpoint: "http://127.0.0.1:1") == "Nederland")
        #expect(try cache.countryName(code: "nl", language: "de", endpoint: "http://127.0.0.1:1") == nil)
        #expect(try cache.count() == 2)
    }
}
