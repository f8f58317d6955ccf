import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// Byte-for-byte golden files of the exports and of the query output formats, run through the
/// built binary: the built-in data (with cached localized places), hostile strings, and 10,000
/// synthetic organizations from the benchmark generator (compared by SHA-256: that output is
/// tens of megabytes). `HUBGEO_UPDATE_GOLDEN=1 swift test --filter ExportGolden` rewrites them;
/// a mismatch leaves the actual output in $TMPDIR/hubgeo-golden-actual and names it.
@Suite("Export golden files", .serialized)
struct ExportGoldenTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["HUBGEO_UPDATE_GOLDEN"] == "1" }

    /// The commands whose output is compared, by golden file name.
    static let builtInCases: [(name: String, arguments: [String])] = [
        ("builtin.geojson", ["export", "geojson"]),
        ("builtin-museums-pretty.geojson", ["export", "geojson", "--pretty", "--type", "museum"]),
        ("builtin-nl.geojson", ["export", "geojson", "--lang", "nl"]),
        ("builtin.kml", ["export", "kml"]),
        ("builtin-clubs-pretty-nl.kml", ["export", "kml", "--pretty", "--lang", "nl", "--type", "club", "--bbox", "51", "4", "52", "6"]),
        ("builtin-museums-near.kml", ["export", "kml", "--type", "museum", "--near", "52.37", "4.89", "--km", "60"]),
        ("near-table.txt", ["near", "51.4", "5.4", "--km", "20"]),
        ("near-nl-table.txt", ["near", "51.4", "5.4", "--km", "20", "--lang", "nl"]),
        ("near.json", ["near", "51.4", "5.4", "--km", "20", "--format", "json"]),
        ("near-nl.json", ["near", "51.4", "5.4", "--km", "20", "--format", "json", "--lang", "nl"]),
        ("near.geojson", ["near", "51.4", "5.4", "--km", "20", "--format", "geojson"]),
        ("nearest.json", ["near", "-33.87", "151.21", "--nearest", "3", "--format", "json"]),
        ("bbox.json", ["bbox", "50.7", "3.3", "53.6", "7.3", "--type", "museum", "--format", "json"]),
        ("search.geojson", ["search", "foto", "--limit", "5", "--offset", "2", "--format", "geojson"]),
        ("search-table.txt", ["search", "museum"]),
    ]

    /// Compares `actual` with the golden file `name` (or writes it when updating).
    static func expectGolden(_ actual: Data, name: String) throws {
        let url = folder.appendingPathComponent(name)
        if updating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: url)
            return
        }
        let expected = try Data(contentsOf: url)
        if expected != actual {
            let keptFolder = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-golden-actual")
            try FileManager.default.createDirectory(at: keptFolder, withIntermediateDirectories: true)
            let kept = keptFolder.appendingPathComponent(name).path
            try actual.write(to: URL(fileURLWithPath: kept))
            let firstDifference = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expected.count, actual.count)
            let message = "\(name): output differs from the golden file at byte \(firstDifference) "
                + "(\(actual.count) bytes, golden \(expected.count)); actual output in \(kept)"
            Issue.record(Comment(rawValue: message))
        }
    }

    /// Some cached Dutch places for the built-in data, as `hubgeo localize` stores them.
    static func cacheDutchPlaces(database: String) throws {
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            let points = try Row.fetchAll(db, sql: "SELECT latitude, longitude FROM organization ORDER BY stable_id")
            for (index, row) in points.enumerated() where index % 3 != 2 {
                let coordinate = GeocodeCoordinate(GeoPoint(latitude: row["latitude"], longitude: row["longitude"]))
                let town: String? = index % 3 == 0 ? "Plaats \(index) \"aan\" de <Maas> & zo" : nil
                try db.execute(sql: """
                    INSERT OR REPLACE INTO geocode_cache (latitude_e6, longitude_e6, language, endpoint, zoom, status, town,
                        town_key, country, country_code, source, raw_response, fetched_at)
                    VALUES (?, ?, 'nl', 'https://nominatim.example', 14, 'found', ?, 'town', ?, 'nl', 'request', '{}',
                            '2026-01-01T00:00:00Z')
                    """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, town, index % 2 == 0 ? "Nederland" : "België"])
            }
            // Newer answers at another zoom and from another endpoint, for every point: the queries
            // (zoom 14 at https://nominatim.example) never show them.
            for (index, row) in points.enumerated() {
                let coordinate = GeocodeCoordinate(GeoPoint(latitude: row["latitude"], longitude: row["longitude"]))
                for (endpoint, zoom) in [("https://nominatim.example", 18), ("https://elsewhere.example", 14)] {
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO geocode_cache (latitude_e6, longitude_e6, language, endpoint, zoom, status, town,
                            town_key, country, country_code, source, raw_response, fetched_at)
                        VALUES (?, ?, 'nl', ?, ?, 'found', ?, 'road', 'Elders', 'xx', 'request', '{}', '2026-06-01T00:00:00Z')
                        """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, endpoint, zoom, "Straat \(index) (\(zoom))"])
                }
            }
        }
    }

    @Test("exports and query output of the built-in data match the golden files byte for byte")
    func builtInData() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        let first = try cli.run(["stats"])
        #expect(first.status == 0, "\(first.stderr)")
        try Self.cacheDutchPlaces(database: database)
        for (name, arguments) in Self.builtInCases {
            let result = try CommandRunner.run(try CLIRunner.binary(), arguments, environment: cli.environment.merging(
                ["HUBGEO_CONFIG": "/nonexistent", "HUBGEO_NOMINATIM_URL": "https://nominatim.example"]) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            try Self.expectGolden(result.stdout, name: name)
        }
    }

    @Test("hostile strings export byte for byte as before")
    func hostileStrings() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organizations = [ExportFixtures.hostileOrganization,
                             ExportFixtures.plainOrganization(1, latitude: -0.00000004, longitude: 179.99999996),
                             ExportFixtures.plainOrganization(2, type: .club, latitude: 89.123456789, longitude: -179.5)]
        let store = try ExportFixtures.store(organizations, in: directory)
        for (name, arguments) in [("hostile.geojson", ["export", "geojson"]), ("hostile-pretty.geojson", ["export", "geojson", "--pretty"]),
                                  ("hostile.kml", ["export", "kml"]), ("hostile.json", ["search", "", "--format", "json"])] {
            let result = try CommandRunner.hubgeo(arguments + ["--db", store.path])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            try Self.expectGolden(result.stdout, name: name)
        }
    }

    @Test("10,000 synthetic organizations export with the golden SHA-256")
    func synthetic() throws {
        let directory = try TestPaths.temporaryDirectory()
        let script = TestPaths.packageRoot.appendingPathComponent("Benchmarks/generate.py").path
        let generated = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", script, "--count", "10000", "--seed", "12", "--out", directory.path("bench")],
                                              environment: ProcessInfo.processInfo.environment, timeout: 120)
        #expect(generated.status == 0, "\(generated.stderr)")
        let database = directory.path("synthetic.sqlite")
        let imported = try CommandRunner.hubgeo(["import", directory.path("bench/bench.level1.json"), "--db", database])
        try #require(imported.status == 0, "\(imported.stderr)")
        var hashes: [String] = []
        for (name, arguments) in [("synthetic.geojson", ["export", "geojson"]), ("synthetic.kml", ["export", "kml"]),
                                  ("synthetic-pretty.kml", ["export", "kml", "--pretty", "--type", "museum"]),
                                  ("synthetic-near.json", ["near", "48.2", "11.5", "--km", "2000", "--format", "json"]),
                                  ("synthetic-near.geojson", ["near", "48.2", "11.5", "--km", "2000", "--format", "geojson"])] {
            let result = try CommandRunner.hubgeo(arguments + ["--db", database])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            // JSON names the Level 1 file read, which lies in this test's scratch directory.
            let output = Data(String(decoding: result.stdout, as: UTF8.self)
                .replacingOccurrences(of: directory.url.path, with: "$SCRATCH").utf8)
            let digest = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [writeOut(output, name, directory)])
            hashes.append("\(digest.text.prefix(64))  \(name)  \(output.count) bytes")
        }
        try Self.expectGolden(Data((hashes.joined(separator: "\n") + "\n").utf8), name: "synthetic-10000.sha256")
    }

    private func writeOut(_ data: Data, _ name: String, _ directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
