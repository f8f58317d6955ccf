import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing

/// `hubgeo stats` and `/api/stats`: the counts and extent the last import recorded, read in constant
/// time, equal to a count over the rows after every kind of import.
@Suite("Statistics", .serialized)
struct StatisticsTests {
    /// A store of `count` organizations (every fifth a museum, every third club with a Level 2 file),
    /// filled in SQL as ``ExportMemoryTests/syntheticStore(count:in:)`` is, with rows of the size an
    /// import writes (Benchmarks/generate.py's: about 430 bytes each, 85 MB at 200,000), and the
    /// import run that records them.
    static func largeStore(count: Int, in directory: TemporaryDirectory) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("large-\(count).sqlite"))
        try store.database.write { db in
            try db.execute(sql: """
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?),
                points AS (SELECT n, (n * 7919 % 170000) / 1000.0 - 85 AS lat, (n * 104729 % 359000) / 1000.0 - 179.5 AS lon FROM seq)
                INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, website, wikipedia,
                    level2_url, has_level2, level1_source, level2_source, search_key, fingerprint, geom)
                SELECT printf('%016x', n), CASE WHEN n % 5 = 0 THEN 'museum' ELSE 'club' END, 'Town ' || (n % 997),
                       'Synthetic club ' || n, 'syn' || n, lat, lon, 'https://www.example.org/clubs/syn' || n || '/',
                       'https://en.wikipedia.org/wiki/Synthetic_club_' || n, 'https://www.example.org/JSON/syn' || n || '.level2.json',
                       n % 5 <> 0 AND n % 3 = 0, '/home/someone/photoclubhub/data/root.level1.json',
                       CASE WHEN n % 5 <> 0 AND n % 3 = 0 THEN '/home/someone/photoclubhub/data/syn' || n || '.level2.json' END,
                       'synthetic club ' || n || char(31) || 'syn' || n || char(31) || 'town ' || (n % 997),
                       printf('v3-%016x%016x', n * 2654435761, n * 40503), MakePoint(lon, lat, 4326)
                FROM points
                """, arguments: [count])
            try db.execute(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed)
                VALUES ('synthetic', '2026-01-01T00:00:00Z', ?, ?, 0, 0)
                """, arguments: [count, count])
        }
        return store
    }

    @Test("/api/stats answers within --timeout 0.05 on an idle server of 200,000 organizations (a scan of them took longer: a 503)")
    func constantTimeOnALargeDatabase() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try Self.largeStore(count: 200_000, in: directory)
        let cli = CLIRunner(database: store.path, home: directory.url.path)
        let server = try ServeProcess(arguments: ["--db", store.path, "--timeout", "0.05"], environment: cli.environment)
        for _ in 0..<5 {
            let answer = try server.get("/api/stats")
            #expect(answer.status == 200, "\(answer.status) \(answer.body.prefix(200))")
            let stats = jsonObject(answer.body) as? [String: Any]
            #expect(stats?["clubs"] as? Int == 160_000 && stats?["museums"] as? Int == 40_000 && stats?["clubsWithLevel2"] as? Int == 53_333, "\(answer.body.prefix(400))")
        }
        _ = server.stop()
    }
}
