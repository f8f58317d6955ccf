import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hubgeo stats` and `/api/stats`: the counts and extent the last import recorded, read in constant
/// time, equal to a count over the rows after every kind of import.
@Suite("Statistics", .serialized)
struct StatisticsTests {
    /// A store of `count` organizations (every fifth a museum, every third club with a Level 2 file),
    /// filled in SQL as ``ExportMemoryTests/syntheticStore(count:in:)`` is, with rows of the size an
    /// import writes (Benchmarks/generate.py's: about 430 bytes each, 85 MB at 200,000), and the
    /// import run that records them as an import does (a scan of them takes longer than 50 ms).
    static func largeStore(count: Int, in directory: TemporaryDirectory) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("large-\(count).sqlite"))
        try store.database.write { db in
            try db.execute(sql: """
                INSERT INTO source_document (id, location) VALUES (1, '/home/someone/photoclubhub/data/root.level1.json');
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?),
                points AS (SELECT n, (n * 7919 % 170000) / 1000.0 - 85 AS lat, (n * 104729 % 359000) / 1000.0 - 179.5 AS lon FROM seq)
                INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, website, wikipedia,
                    level2_url, has_level2, level1_document, level2_source, search_key, content_digest, sources_digest, geom)
                SELECT printf('%016x', n), CASE WHEN n % 5 = 0 THEN 'museum' ELSE 'club' END, 'Town ' || (n % 997),
                       'Synthetic club ' || n, 'syn' || n, lat, lon, 'https://www.example.org/clubs/syn' || n || '/',
                       'https://en.wikipedia.org/wiki/Synthetic_club_' || n, 'https://www.example.org/JSON/syn' || n || '.level2.json',
                       n % 5 <> 0 AND n % 3 = 0, 1,
                       CASE WHEN n % 5 <> 0 AND n % 3 = 0 THEN '/home/someone/photoclubhub/data/syn' || n || '.level2.json' END,
                       'synthetic club ' || n || char(31) || 'syn' || n || char(31) || 'town ' || (n % 997),
                       n * 2654435761, n * 40503, MakePoint(lon, lat, 4326)
                FROM points
                """, arguments: [count])
            // What an import of those organizations records (``ImportStatistics``).
            try db.execute(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed,
                    clubs, museums, clubs_with_level2, south, west, north, east)
                SELECT 'synthetic', '2026-01-01T00:00:00Z', count(*), count(*), 0, 0, sum(type = 'club'), sum(type = 'museum'),
                       sum(has_level2), min(latitude), min(longitude), max(latitude), max(longitude)
                FROM organization
                """)
            // The rows are those it recorded (the inserts above count as written since: ``OrganizationWrites``).
            try OrganizationWrites.markImported(db)
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

    // MARK: - Every import path, as a user runs them

    /// The counts and extent as `hubgeo stats --format json` and `/api/stats` give them.
    struct Numbers: Equatable, CustomStringConvertible {
        var clubs = 0, museums = 0, clubsWithLevel2 = 0
        /// south, west, north, east; nil without organizations.
        var extent: [Double]?

        init(clubs: Int = 0, museums: Int = 0, clubsWithLevel2: Int = 0, extent: [Double]? = nil) {
            self.clubs = clubs
            self.museums = museums
            self.clubsWithLevel2 = clubsWithLevel2
            self.extent = extent
        }

        /// From the JSON of `hubgeo stats` or `/api/stats`; nil when it is none.
        init?(json: String) {
            guard let object = jsonObject(json) as? [String: Any], let clubs = object["clubs"] as? Int,
                  let museums = object["museums"] as? Int, let level2 = object["clubsWithLevel2"] as? Int else { return nil }
            self.init(clubs: clubs, museums: museums, clubsWithLevel2: level2)
            if let sw = object["southWest"] as? [String: Any], let ne = object["northEast"] as? [String: Any] {
                extent = [sw["latitude"], sw["longitude"], ne["latitude"], ne["longitude"]].compactMap { ($0 as? NSNumber)?.doubleValue }
            }
        }

        var description: String { "\(clubs) clubs, \(museums) museums, \(clubsWithLevel2) with Level 2, extent \(extent ?? [])" }
    }

    /// Counts the rows of the database one by one, read-only with GRDB (no SpatiaLite, no hubgeo code).
    static func bruteForce(_ path: String) throws -> Numbers {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            var numbers = Numbers()
            var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity
            for row in try Row.fetchAll(db, sql: "SELECT type, has_level2, latitude, longitude FROM organization") {
                let type: String = row[0]
                if type == "club" { numbers.clubs += 1 } else if type == "museum" { numbers.museums += 1 }
                if (row[1] as Int) != 0 { numbers.clubsWithLevel2 += 1 }
                let latitude: Double = row[2], longitude: Double = row[3]
                south = min(south, latitude)
                north = max(north, latitude)
                west = min(west, longitude)
                east = max(east, longitude)
            }
            if numbers.clubs + numbers.museums > 0 { numbers.extent = [south, west, north, east] }
            return numbers
        }
    }

    /// A Photo Club Hub tree in a folder: one Level 1 file and a Level 2 file for some clubs (which
    /// may move them: the Level 2 coordinates win).
    struct Tree {
        var clubs: [Level1Builder.Entry] = []
        var museums: [Level1Builder.Entry] = []
        /// Level 2 files: the club's nickname, and the coordinates the file gives it.
        var level2: [String: (latitude: Double, longitude: Double)] = [:]

        static func entry(_ name: String, _ latitude: Double, _ longitude: Double) -> Level1Builder.Entry {
            .init(town: "Town \(name.count % 3)", fullName: name, nickName: name.replacingOccurrences(of: " ", with: ""),
                  latitude: latitude, longitude: longitude)
        }

        /// Organizations spread over the globe (a fixed seed).
        init(clubs: Int, museums: Int, seed: UInt64) {
            var random = SplitMix64(seed: seed)
            func point() -> (Double, Double) {
                ((Double.random(in: -70..<70, using: &random) * 1e4).rounded() / 1e4,
                 (Double.random(in: -170..<170, using: &random) * 1e4).rounded() / 1e4)
            }
            self.clubs = (0..<clubs).map { let (lat, lon) = point(); return Self.entry("Club \($0)", lat, lon) }
            self.museums = (0..<museums).map { let (lat, lon) = point(); return Self.entry("Museum \($0)", lat, lon) }
        }

        /// What the tree holds, by the coordinates that win.
        var numbers: Numbers {
            var numbers = Numbers(clubs: clubs.count, museums: museums.count, clubsWithLevel2: clubs.count { level2[$0.nickName] != nil })
            let points = clubs.map { level2[$0.nickName] ?? ($0.latitude, $0.longitude) } + museums.map { ($0.latitude, $0.longitude) }
            if !points.isEmpty {
                numbers.extent = [points.map(\.0).min()!, points.map(\.1).min()!, points.map(\.0).max()!, points.map(\.1).max()!]
            }
            return numbers
        }

        func write(to folder: String) throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: folder) where name.hasSuffix(".level2.json") {
                try manager.removeItem(atPath: folder + "/" + name)
            }
            try Data(Level1Builder.level1(clubs: clubs, museums: museums).utf8).write(to: URL(fileURLWithPath: folder + "/root.level1.json"))
            for club in clubs {
                guard let moved = level2[club.nickName] else { continue }
                var inLevel2 = club
                inLevel2.latitude = moved.latitude
                inLevel2.longitude = moved.longitude
                try Data(Level1Builder.level2(club: inLevel2).utf8).write(to: URL(fileURLWithPath: folder + "/\(club.nickName).level2.json"))
            }
        }
    }

    /// `hubgeo stats --format json` and the server's `/api/stats` both give the numbers of the rows.
    static func expectStatistics(_ cli: CLIRunner, _ path: String, server: ServeProcess?, _ step: String,
                                 expected: Numbers? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rows = try bruteForce(path)
        if let expected { #expect(rows == expected, "\(step): the rows hold \(rows)", sourceLocation: sourceLocation) }
        let stats = try cli.run(["stats", "--format", "json"])
        #expect(stats.status == 0, "\(step): \(stats.stderr)", sourceLocation: sourceLocation)
        #expect(Numbers(json: stats.stdout) == rows, "\(step): stats says \(stats.stdout), the rows hold \(rows)", sourceLocation: sourceLocation)
        if let server {
            let answer = try server.get("/api/stats")
            #expect(answer.status == 200 && Numbers(json: answer.body) == rows,
                    "\(step): /api/stats says \(answer.status) \(answer.body), the rows hold \(rows)", sourceLocation: sourceLocation)
        }
    }

    static func sqlite(_ path: String, _ sql: String) throws {
        let result = try CommandRunner.tool("sqlite3", [path, sql], package: "sqlite3")
        #expect(result.status == 0, "\(sql): \(result.stderr)")
    }

    @Test("after a first import, changes, removals, an unchanged re-import, damaged rows rewritten and every club removed, stats and /api/stats count the rows")
    func everyImportPath() throws {
        let home = try TestPaths.temporaryDirectory()
        let folder = home.path("tree")
        let path = home.path("hub.sqlite")
        let cli = CLIRunner(database: path, home: home.url.path)
        func importTree(_ tree: Tree, _ step: String, expect summary: String, note: String? = nil) throws {
            try tree.write(to: folder)
            let result = try cli.run(["import", folder])
            #expect(result.status == 0 && result.stdout.contains(summary), "\(step): \(result.stdout) \(result.stderr)")
            if let note { #expect(result.stderr.contains(note), "\(step): \(result.stderr)") }
        }

        // A first import: a new database (built beside its name, then linked).
        var tree = Tree(clubs: 40, museums: 9, seed: 34)
        for club in tree.clubs.prefix(6) { tree.level2[club.nickName] = (club.latitude, club.longitude) }
        try importTree(tree, "first import", expect: "49 added, 0 changed, 0 removed, 0 unchanged")
        #expect(tree.numbers.clubs == 40 && tree.numbers.museums == 9 && tree.numbers.clubsWithLevel2 == 6)
        try Self.expectStatistics(cli, path, server: nil, "first import", expected: tree.numbers)
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        try Self.expectStatistics(cli, path, server: server, "first import, served")

        // Changes: a club goes farther north than any, a Level 2 file moves one farther east, a
        // club becomes a museum, another gets a Level 2 file; three clubs are added.
        tree.clubs[10].latitude = 80.5
        tree.level2[tree.clubs[1].nickName] = (12.25, 179.75)
        var museum = tree.clubs.remove(at: 20)
        museum.optional = "{}"
        tree.museums.append(museum)
        tree.level2[tree.clubs[30].nickName] = (tree.clubs[30].latitude, tree.clubs[30].longitude)
        tree.clubs += [Tree.entry("New club a", -75.5, 3), Tree.entry("New club b", 1, 2), Tree.entry("New club c", 3, 4)]
        try importTree(tree, "changes", expect: "3 added, 4 changed, 0 removed")
        let changed = tree.numbers
        #expect(changed.clubs == 42 && changed.museums == 10 && changed.clubsWithLevel2 == 7, "\(changed)")
        #expect(changed.extent?[0] == -75.5 && changed.extent?[2] == 80.5 && changed.extent?[3] == 179.75, "\(changed)")
        try Self.expectStatistics(cli, path, server: server, "changes", expected: changed)

        // Removals: the organizations at the extent's edges, two museums, a Level 2 file.
        let edges = changed.extent!
        let level2 = tree.level2
        func atAnEdge(_ entry: Level1Builder.Entry) -> Bool {
            let (latitude, longitude) = level2[entry.nickName] ?? (entry.latitude, entry.longitude)
            return latitude == edges[0] || longitude == edges[1] || latitude == edges[2] || longitude == edges[3]
        }
        tree.clubs.removeAll(where: atAnEdge)
        tree.museums.removeAll(where: atAnEdge)
        tree.museums.removeLast(2)
        let unfiled = try #require(tree.clubs.first { tree.level2[$0.nickName] != nil }).nickName
        tree.level2[unfiled] = nil
        try importTree(tree, "removals", expect: "0 added, 1 changed")
        let shrunk = tree.numbers.extent!
        #expect(shrunk[0] > edges[0] && shrunk[1] > edges[1] && shrunk[2] < edges[2] && shrunk[3] < edges[3], "\(edges) -> \(shrunk)")
        try Self.expectStatistics(cli, path, server: server, "removals", expected: tree.numbers)

        // Nothing changed.
        let before = tree.numbers
        try importTree(tree, "unchanged", expect: "0 added, 0 changed, 0 removed")
        try Self.expectStatistics(cli, path, server: server, "unchanged", expected: before)

        // Damaged rows: a type that is none, a latitude of text, a stable id that is none (that row
        // cannot be matched: removed, and added again from the data). The import rewrites them.
        try Self.sqlite(path, """
            PRAGMA ignore_check_constraints = ON;
            UPDATE organization SET type = 'shop' WHERE id = (SELECT min(id) FROM organization);
            UPDATE organization SET latitude = 'north' WHERE id = (SELECT max(id) FROM organization);
            UPDATE organization SET stable_id = 'not an id', latitude = -89, type = 'museum'
                WHERE id = (SELECT min(id) FROM organization WHERE type = 'club' AND id > (SELECT min(id) FROM organization));
            """)
        try importTree(tree, "damaged rows", expect: "1 added, 2 changed, 0 removed", note: "held values hubgeo does not write")
        try Self.expectStatistics(cli, path, server: server, "damaged rows rewritten", expected: before)

        // Damaged numbers of the last import: a clear error, never a crash; the next import, though
        // it changes nothing, records them anew.
        for damage in ["south = 'far'", "clubs = -3", "museums = NULL", "east = NULL, north = NULL", "clubs_with_level2 = clubs + museums + 1",
                       "south = north + 1"] {
            try Self.sqlite(path, "PRAGMA ignore_check_constraints = ON; UPDATE import_run SET \(damage) WHERE id = (SELECT max(id) FROM import_run)")
            let stats = try cli.run(["stats", "--format", "json"])
            #expect(stats.status == 1 && stats.stderr.contains("\(path): the database is damaged: import_run row ")
                    && stats.stderr.contains("hubgeo import") && !stats.stderr.contains("Fatal error"), "\(damage): \(stats.stderr)")
            let answer = try server.get("/api/stats")
            #expect(answer.status == 500, "\(damage): \(answer.status) \(answer.body)")
            try importTree(tree, "after \(damage)", expect: "0 added, 0 changed, 0 removed", note: "; recorded anew")
            try Self.expectStatistics(cli, path, server: server, "after \(damage)", expected: before)
        }

        // Every club removed (an import of no organizations at all is refused), one museum left.
        tree.clubs = []
        tree.museums = [tree.museums[0]]
        try importTree(tree, "clubs removed", expect: "0 added, 0 changed, \(before.clubs + before.museums - 1) removed")
        let left = tree.museums[0]
        try Self.expectStatistics(cli, path, server: server, "clubs removed",
                                  expected: Numbers(museums: 1, extent: [left.latitude, left.longitude, left.latitude, left.longitude]))
        #expect(server.process.isRunning)
        _ = server.stop()
    }

    @Test("a database of an older hubgeo (no numbers recorded) is counted by a scan and not written; the next import records them")
    func olderDatabase() throws {
        let home = try TestPaths.temporaryDirectory()
        let folder = home.path("tree")
        let path = home.path("hub.sqlite")
        let cli = CLIRunner(database: path, home: home.url.path)
        var tree = Tree(clubs: 25, museums: 5, seed: 7)
        for club in tree.clubs.prefix(4) { tree.level2[club.nickName] = (club.latitude, club.longitude) }
        try tree.write(to: folder)
        #expect(try cli.run(["import", folder]).status == 0)
        let expected = try Self.bruteForce(path)
        #expect(expected.clubs == 25 && expected.museums == 5 && expected.clubsWithLevel2 == 4)

        // What hubgeo before the "v5 import statistics" migration left: import_run without the columns.
        try Self.sqlite(path, ImportStatistics.columns.map { "ALTER TABLE import_run DROP COLUMN \($0);" }.joined()
                        + "DELETE FROM grdb_migrations WHERE identifier = 'v5 import statistics'; PRAGMA wal_checkpoint(TRUNCATE);")
        func contents() throws -> String {
            try CommandRunner.tool("sqlite3", [path, ".sha3sum"], package: "sqlite3").text + (try ForeignDatabaseTests.sha256(path))
        }
        let hash = try contents()
        try Self.expectStatistics(cli, path, server: nil, "older database", expected: expected)
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        try Self.expectStatistics(cli, path, server: server, "older database, served", expected: expected)
        _ = server.stop()
        #expect(try contents() == hash, "a query wrote into the older database")

        // Brought up to date by a command that writes but imports nothing: the last run has no numbers (NULL).
        #expect(try cli.run(["localize", "--lang", "en", "--offline"]).status == 0)
        #expect(try CommandRunner.tool("sqlite3", [path, "SELECT count(*) FROM import_run WHERE clubs IS NULL"], package: "sqlite3").text
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        try Self.expectStatistics(cli, path, server: nil, "migrated, not imported", expected: expected)

        // The next import, though nothing changed, records them.
        let imported = try cli.run(["import", folder])
        #expect(imported.status == 0 && imported.stdout.contains("0 added, 0 changed, 0 removed, 30 unchanged"), "\(imported.stdout)")
        #expect(try CommandRunner.tool("sqlite3", [path, "SELECT clubs, museums, clubs_with_level2 FROM import_run ORDER BY id DESC LIMIT 1"],
                                       package: "sqlite3").text.trimmingCharacters(in: .whitespacesAndNewlines) == "25|5|4")
        try Self.expectStatistics(cli, path, server: nil, "imported again", expected: expected)
    }
}
