import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing

/// Exports stream: the exporter's peak memory does not grow with the number of organizations.
@Suite("Export memory")
struct ExportMemoryTests {
    /// Fills a store with `count` synthetic organizations (every fifth a museum, spread over
    /// the globe, each with a remark) in a few SQL statements: Swift-side importing of 100,000
    /// organizations would take minutes in a debug build.
    static func syntheticStore(count: Int, in directory: TemporaryDirectory) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("synthetic-\(count).sqlite"))
        try store.database.write { db in
            try db.execute(sql: """
                INSERT INTO source_document (id, location) VALUES (1, 'synthetic');
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?),
                points AS (SELECT n, (n * 7919 % 170000) / 1000.0 - 85 AS lat, (n * 104729 % 359000) / 1000.0 - 179.5 AS lon FROM seq)
                INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, website,
                    fotobond_number, has_level2, member_count, level1_document, search_key, content_digest, sources_digest, geom)
                SELECT printf('%016x', n), CASE WHEN n % 5 = 0 THEN 'museum' ELSE 'club' END, 'Town ' || (n % 997),
                       'Synthetic photo organization number ' || n, 'syn' || n, lat, lon, 'https://example.org/club/' || n,
                       n % 3000, 1, n % 60, 1, 'synthetic ' || n, 0, 0, MakePoint(lon, lat, 4326)
                FROM points
                """, arguments: [count])
            try db.execute(sql: """
                INSERT INTO organization_remark (organization_id, language, value)
                SELECT id, 'EN', 'A synthetic remark about organization ' || id || ' that is long enough to look like a real one, with "quotes" & <markup>.'
                FROM organization
                """)
        }
        return store
    }

    @Test("100,000 organizations export with the same peak memory as 1,000 (GeoJSON and KML)")
    func flatMemory() throws {
        let directory = try TestPaths.temporaryDirectory()
        let clock = ContinuousClock()
        let start = clock.now
        let small = try Self.syntheticStore(count: 1_000, in: directory)
        let large = try Self.syntheticStore(count: 100_000, in: directory)
        let generated = clock.now - start
        #expect(try large.count(.all) == 100_000)
        for format in ["geojson", "kml"] {
            var peaks: [Int: Int] = [:]
            var sizes: [Int: Int] = [:]
            var seconds: [Int: Double] = [:]
            for (count, store) in [(1_000, small), (100_000, large)] {
                let output = directory.path("out-\(count).\(format)")
                let run = try CommandRunner.peakRSS(try CommandRunner.hubgeo, ["export", format, "--db", store.path, "-o", output])
                #expect(run.status == 0)
                peaks[count] = run.kilobytes
                seconds[count] = run.seconds
                sizes[count] = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            }
            // The bound: the 100k export may use at most 16 MiB more than the 1k one. Holding the
            // organizations would cost far more: the 100k output alone is about 40 MB (GeoJSON) /
            // 70 MB (KML), and 100,000 Organization values with their strings well over 50 MB.
            // What legitimately differs is small: SQLite's page cache (2 MB default), the
            // 64 KiB output buffer, malloc arenas, and the 4 MiB of records that the export of a
            // whole table keeps while it puts them in stable id order (StableIDOrdering).
            let margin = 16 * 1024
            print("export \(format): peak RSS \(peaks[1_000]!) KiB for 1,000 (\(sizes[1_000]!) bytes), "
                + "\(peaks[100_000]!) KiB for 100,000 (\(sizes[100_000]!) bytes, \(seconds[100_000]!) s); data generated in \(generated)")
            #expect(sizes[100_000]! > 50 * sizes[1_000]!, "the large export really is large")
            #expect(peaks[100_000]! < peaks[1_000]! + margin,
                    "\(format): \(peaks[100_000]!) KiB for 100,000 vs \(peaks[1_000]!) KiB for 1,000")
        }
    }

    @Test("query output of 100,000 results as JSON and GeoJSON streams: the same peak memory as 1,000")
    func queryOutputFlatMemory() throws {
        let directory = try TestPaths.temporaryDirectory()
        let small = try Self.syntheticStore(count: 1_000, in: directory)
        let large = try Self.syntheticStore(count: 100_000, in: directory)
        for (format, arguments) in [("json", ["bbox", "-90", "-180", "90", "180", "--format", "json"]),
                                    ("geojson", ["near", "0", "0", "--km", "20000", "--format", "geojson"])] {
            var peaks: [Int: Int] = [:]
            var sizes: [Int: Int] = [:]
            for (count, store) in [(1_000, small), (100_000, large)] {
                let output = directory.path("query-\(count).\(format)")
                let run = try CommandRunner.peakRSS(URL(fileURLWithPath: "/bin/sh"),
                                                    ["-c", "exec \"$0\" \"$@\" > \(output)", try CommandRunner.hubgeo.path]
                                                        + arguments + ["--db", store.path])
                #expect(run.status == 0)
                peaks[count] = run.kilobytes
                sizes[count] = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            }
            print("query --format \(format): peak RSS \(peaks[1_000]!) KiB for 1,000 (\(sizes[1_000]!) bytes), "
                + "\(peaks[100_000]!) KiB for 100,000 (\(sizes[100_000]!) bytes)")
            #expect(sizes[100_000]! > 50 * sizes[1_000]!, "the large output really is large")
            #expect(peaks[100_000]! < peaks[1_000]! + 16 * 1024,
                    "\(format): \(peaks[100_000]!) KiB for 100,000 vs \(peaks[1_000]!) KiB for 1,000")
        }
    }
}
