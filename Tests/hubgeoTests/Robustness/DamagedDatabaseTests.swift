import Foundation
import GRDB
@testable import HubGeoClusters
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A damaged database: a file stamped as hubgeo's whose contents are not what hubgeo wrote (changed
/// with the sqlite3 CLI past the table's CHECKs, or its bytes overwritten). No command crashes on it
/// (they stopped with "Swift runtime failure", exit 132): each fails with exit 1 and a message that
/// names the database and says what to do; the server answers a 500; an import rewrites what it
/// cannot read. A database of a newer hubgeo is never written.
@Suite("Damaged databases")
struct DamagedDatabaseTests {
    /// A database of the built-in data made by the built hubgeo, checkpointed into one file, and
    /// the GeoJSON `export` writes of it.
    struct Clean {
        let home: TemporaryDirectory
        let path: String
        let geojson: String

        init() throws {
            home = try TestPaths.temporaryDirectory()
            path = home.path("clean.sqlite")
            let cli = CLIRunner(database: path, home: home.url.path)
            let export = try cli.run(["export", "geojson", "-o", "-"])
            #expect(export.status == 0, "\(export.stderr)")
            geojson = export.stdout
            #expect(try DamagedDatabaseTests.sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)").status == 0)
        }

        /// A copy of the clean database, damaged by the sqlite3 CLI (one run per `sql`: a changed
        /// schema is read by the next run), and a CLI on it.
        func damaged(_ name: String, _ sql: String...) throws -> (path: String, cli: CLIRunner) {
            let copy = home.path(name + ".sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            for sql in sql {
                let result = try DamagedDatabaseTests.sqlite(copy, sql)
                #expect(result.status == 0, "\(sql): \(result.stderr)")
            }
            return (copy, CLIRunner(database: copy, home: home.url.path))
        }
    }

    static func sqlite(_ path: String, _ sql: String) throws -> CommandRunner.Result {
        try CommandRunner.tool("sqlite3", [path, sql], package: "sqlite3")
    }

    /// Drops the NOT NULL of `column` from the organization table's definition (sqlite3's
    /// writable schema), so that a NULL can be written, as a damaged file may hold one.
    static func allowNull(_ column: String) -> String {
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, '\(column) TEXT NOT NULL', '\(column) TEXT') WHERE name = 'organization';"
    }

    /// Fotoclub Afovera (Assen), row 1 of the built-in data.
    static let afovera = "eab42d13e42c6418"
    /// Fotoclub BeFoAm (Beilen), row 2.
    static let befoam = "e46995c4c4e3c6b3"

    /// Runs `arguments` on the damaged database: exit 1 and a message naming it and `reason`.
    static func expectDamaged(_ cli: CLIRunner, _ path: String, _ arguments: [String], reason: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try cli.run(arguments, timeout: 60)
        #expect(result.status == 1, "\(arguments): exit \(result.status): \(result.stderr.suffix(600))", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("\(path): the database is damaged: ") && result.stderr.contains(reason)
                && result.stderr.contains("hubgeo import"),
                "\(arguments): \(result.stderr.suffix(600))", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Program crashed"),
                "\(arguments): \(result.stderr.suffix(600))", sourceLocation: sourceLocation)
    }

    /// The commands that read organizations' rows, as a user gives them.
    static let queries: [[String]] = [
        ["near", "53", "6.5", "--km", "20"], ["bbox", "52.9", "6.4", "53.1", "6.7"], ["search", "afovera"], ["show", afovera],
        ["export", "geojson", "-o", "out.geojson"], ["export", "kml", "-o", "-"], ["map", "-o", "-"],
    ]

    @Test("a NULL town, a latitude of 1e9 or infinity, text for a longitude, a bad type: every query fails naming the database; an import rewrites the row")
    func damagedRows() throws {
        let clean = try Clean()
        let cases: [(name: String, sql: String, reason: String)] = [
            ("null-town", "UPDATE organization SET town = NULL WHERE stable_id = '\(Self.afovera)';",
             "organization row 1: town holds NULL, not text"),
            ("huge-latitude", "PRAGMA ignore_check_constraints = ON; UPDATE organization SET latitude = 1e9 WHERE stable_id = '\(Self.afovera)';",
             "organization row 1: " + "latitude holds the number 1000000000.0, not a number in -90...90"),
            ("infinite-latitude", "PRAGMA ignore_check_constraints = ON; UPDATE organization SET latitude = 9e999 WHERE stable_id = '\(Self.afovera)';",
             "organization row 1: " + "latitude holds the number inf, not a number in -90...90"),
            ("text-longitude", "PRAGMA ignore_check_constraints = ON; UPDATE organization SET longitude = 'east' WHERE stable_id = '\(Self.afovera)';",
             "organization row 1: " + "longitude holds text, not a number in -180...180"),
            ("bad-type", "PRAGMA ignore_check_constraints = ON; UPDATE organization SET type = 'shop' WHERE stable_id = '\(Self.afovera)';",
             "organization row 1: " + "type holds 'shop', not 'club' or 'museum'"),
        ]
        for damage in cases {
            let (path, cli) = damage.name == "null-town"
                ? try clean.damaged(damage.name, Self.allowNull("town"), damage.sql) : try clean.damaged(damage.name, damage.sql)
            for arguments in Self.queries {
                // The export's output is named inside the home directory.
                let arguments = arguments.map { $0 == "out.geojson" ? clean.home.path("out.geojson") : $0 }
                if !["search", "show"].contains(arguments[0]) {
                    // A spatial query compares the stored coordinates in SQL, an export selects
                    // by type: a row damaged there is not found, and not read. Either way, no crash.
                    let result = try cli.run(arguments)
                    #expect(result.status == 0 && !result.stdout.contains("Afovera")
                            || result.status == 1 && result.stderr.contains("\(path): the database is damaged: \(damage.reason)"),
                            "\(damage.name) \(arguments): exit \(result.status): \(result.stderr.suffix(600))")
                    let output = clean.home.path("out.geojson")
                    #expect(result.status == 0 || !FileManager.default.fileExists(atPath: output), "\(damage.name): a failed export left its output")
                    try? FileManager.default.removeItem(atPath: output)
                    continue
                }
                try Self.expectDamaged(cli, path, arguments, reason: damage.reason)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: clean.home.url.path).allSatisfy { !$0.contains(".hubgeo-") },
                    "\(damage.name): a temporary file was left")

            // The import rewrites the row from the data, says so, and every query answers as on the clean database.
            let imported = try cli.run(["import"])
            #expect(imported.status == 0, "\(damage.name): \(imported.stderr.suffix(600))")
            #expect(imported.stderr.contains("note: \(path): organization row 1 held values hubgeo does not write"), "\(imported.stderr.prefix(600))")
            #expect(imported.stdout.contains("0 added, 1 changed, 0 removed, 130 unchanged"), "\(damage.name): \(imported.stdout)")
            let export = try cli.run(["export", "geojson", "-o", "-"])
            #expect(export.status == 0 && export.stdout == clean.geojson, "\(damage.name): \(export.stderr)")
            for arguments in Self.queries + [["stats"]] where !arguments.contains("out.geojson") {
                let result = try cli.run(arguments)
                #expect(result.status == 0, "\(damage.name) \(arguments) after the import: \(result.stderr.suffix(600))")
            }
        }
    }

    @Test("stats on text for a recorded count or corner, or a blob for imported_at, fails naming the database; so does its scan of an older database's text latitude")
    func damagedStatistics() throws {
        let clean = try Clean()
        let (textPath, textCLI) = try clean.damaged(
            "text-south", "PRAGMA ignore_check_constraints = ON; UPDATE import_run SET south = 'south';")
        try Self.expectDamaged(textCLI, textPath, ["stats"], reason: "import_run row 1: south holds text, not a number in -90...90")
        let (countPath, countCLI) = try clean.damaged("real-clubs", "UPDATE import_run SET clubs = 2.5;")
        try Self.expectDamaged(countCLI, countPath, ["stats"], reason: "import_run row 1: clubs holds the number 2.5, not an integer or NULL")
        // A row another program wrote since the import (here damaged) makes stats count the rows instead
        // of reading what the import recorded (``OrganizationWrites``): it meets the damage and says so, as
        // an older database's stats, which scan the rows, do.
        let (rowPath, rowCLI) = try clean.damaged(
            "text-latitude", "PRAGMA ignore_check_constraints = ON; UPDATE organization SET latitude = 'north' WHERE id = 7;")
        try Self.expectDamaged(rowCLI, rowPath, ["stats"], reason: "latitude holds text, not a number in -90...90")
        #expect(try Self.sqlite(rowPath, "UPDATE import_run SET clubs = NULL").status == 0)
        try Self.expectDamaged(rowCLI, rowPath, ["stats"], reason: "latitude holds text, not a number in -90...90")
        let (blobPath, blobCLI) = try clean.damaged("blob-time", "UPDATE import_run SET imported_at = x'00ff80';")
        try Self.expectDamaged(blobCLI, blobPath, ["stats"], reason: "imported_at holds a blob of 3 bytes, not text")
        try Self.expectDamaged(blobCLI, blobPath, ["serve", "--port", "0"], reason: "imported_at holds a blob of 3 bytes, not text")
    }

    @Test("a damaged remark, member or override row fails the query that reads it; an import rewrites its organization")
    func damagedRelations() throws {
        let clean = try Clean()
        // The organization with a remark, a member and an override: the first with all three.
        let row = try Self.sqlite(clean.path, """
            SELECT o.id, o.stable_id FROM organization o WHERE o.id IN (SELECT organization_id FROM organization_remark)
            AND o.id IN (SELECT organization_id FROM level2_override) ORDER BY o.id LIMIT 1
            """).text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map(String.init)
        #expect(row.count == 2)
        let (id, stableID) = (row[0], row[1])
        for (table, column, reason) in [("organization_remark", "value", "organization_remark of organization row \(id): value holds a blob"),
                                        ("level2_override", "level2_value", "level2_override of organization row \(id): level2_value holds a blob")] {
            let (path, cli) = try clean.damaged(table, "UPDATE \(table) SET \(column) = x'01' WHERE organization_id = \(id);")
            try Self.expectDamaged(cli, path, ["show", stableID], reason: reason)
            let imported = try cli.run(["import"])
            #expect(imported.status == 0 && imported.stdout.contains("1 changed"), "\(table): \(imported.stderr.suffix(400)) \(imported.stdout)")
            #expect(try cli.run(["show", stableID]).status == 0)
        }
    }

    @Test("a truncated cluster index: serve says how to rebuild it, an import that changes nothing rebuilds it")
    func truncatedClusterIndex() throws {
        let clean = try Clean()
        let (path, cli) = try clean.damaged("truncated", "UPDATE cluster_index SET data = substr(data, 1, 1000);")
        let serve = try cli.run(["serve", "--port", "0"], timeout: 30)
        #expect(serve.status == 1, "\(serve.stderr)")
        #expect(serve.stderr.contains("\(path): the database is damaged: the stored cluster index (table cluster_index) does not load")
                && serve.stderr.contains("Run `hubgeo import`"), "\(serve.stderr)")
        let imported = try cli.run(["import"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("note: \(path): the stored cluster index (table cluster_index) does not load"), "\(imported.stderr.prefix(600))")
        #expect(imported.stdout.contains("0 added, 0 changed, 0 removed, 131 unchanged"), "\(imported.stdout)")
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        let world = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=0")
        #expect(world.status == 200 && Self.organizationCount(world.body) == 131, "\(world.status) \(world.body.prefix(300))")
        _ = server.stop()
        // The next import finds it sound and leaves it alone.
        let again = try cli.run(["import"])
        #expect(again.status == 0 && !again.stderr.contains("cluster index"), "\(again.stderr.prefix(600))")
    }

    /// The sum of the `count` properties of a cluster answer's features.
    static func organizationCount(_ body: String) -> Int {
        let features = (jsonObject(body) as? [String: Any])?["features"] as? [[String: Any]] ?? []
        return features.reduce(0) { $0 + ((($1["properties"] as? [String: Any])?["count"] as? Int) ?? 0) }
    }

    @Test("a NaN or a huge number in the stored cluster index: serve refuses it at start (it died at the first view); an import rebuilds it")
    func clusterIndexWithDamagedNumbers() throws {
        let clean = try Clean()
        let blob = try DatabaseQueue(path: clean.path).read { db in try Data.fetchOne(db, sql: "SELECT data FROM cluster_index")! }
        let bytes = [UInt8](blob)
        // The arrays' places (the layout ClusterIndex.serialized() writes): 1 is the organizations'
        // latitudes, 6 the clusters' centres, 13 the bands' positions.
        let sizes = ClusterIndex.elementSizes
        var offset = 72 + 8 * sizes.count
        var starts: [Int] = []
        for section in sizes.indices {
            let count = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 72 + 8 * section, as: UInt64.self).littleEndian) }
            offset = (offset + 7) & ~7
            starts.append(offset)
            offset += count * sizes[section]
        }
        #expect(offset == bytes.count)
        for (section, value) in [(1, Double.nan), (1, 1e300), (6, Double.infinity), (13, Double.nan)] {
            var damaged = bytes
            damaged.withUnsafeMutableBytes { $0.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: starts[section], as: UInt64.self) }
            let file = clean.home.path("blob-\(section)")
            try Data(damaged).write(to: URL(fileURLWithPath: file))
            let name = "blob-\(section)-\(value)"
            let (path, cli) = try clean.damaged(name, "UPDATE cluster_index SET data = readfile('\(file)');")
            let serve = try cli.run(["serve", "--port", "0"], timeout: 30)
            #expect(serve.status == 1 && serve.stderr.contains("\(path): the database is damaged: the stored cluster index"),
                    "\(name): exit \(serve.status): \(serve.stderr.suffix(600))")
            let imported = try cli.run(["import"])
            #expect(imported.status == 0 && imported.stderr.contains("cluster index") && imported.stderr.contains("rebuilt"),
                    "\(name): \(imported.stderr.prefix(600))")
            let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
            for zoom in [0, 30] {
                let view = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=\(zoom)")
                #expect(view.status == 200 && Self.organizationCount(view.body) == 131, "\(name) zoom \(zoom): \(view.status)")
            }
            _ = server.stop()
        }
    }

    @Test("serve on rows damaged while it runs: every API that reads them answers 500 and the server keeps serving")
    func serverOnDamagedRows() throws {
        let clean = try Clean()
        let cli = CLIRunner(database: clean.path, home: clean.home.url.path)
        let server = try ServeProcess(arguments: ["--db", clean.path], environment: cli.environment)
        #expect(try server.get("/api/near?lat=53&lon=6.5&km=20").status == 200)
        // Fotoclub Afovera (row 1) gets a type that is none, Fotoclub BeFoAm (row 2, Beilen) a latitude of 1e9.
        #expect(try Self.sqlite(clean.path, """
            PRAGMA ignore_check_constraints = ON; UPDATE organization SET type = 'shop' WHERE stable_id = '\(Self.afovera)';
            UPDATE organization SET latitude = 1e9 WHERE stable_id = '\(Self.befoam)';
            """).status == 0)
        for request in ["/api/near?lat=53&lon=6.5&km=20", "/api/organizations/\(Self.afovera)", "/api/organizations/\(Self.befoam)",
                        "/api/clusters?bbox=6.5,52.95,6.6,53.05&zoom=30"] {
            let answer = try server.get(request)
            #expect(answer.status == 500 && answer.contentType?.hasPrefix("application/json") == true, "\(request): \(answer.status) \(answer.body)")
            #expect((jsonObject(answer.body) as? [String: Any])?["error"] as? String == "the server cannot read its database (its log says why)",
                    "\(request): \(answer.body)")
        }
        // Those that select by type, or compare the stored coordinates in SQL, do not find the rows (and do not read them).
        for request in ["/api/bbox?minlat=52.9&minlon=6.4&maxlat=53.1&maxlon=6.7", "/api/search?q=afovera"] {
            let answer = try server.get(request)
            #expect(answer.status == 200 && !answer.body.contains("Afovera"), "\(request): \(answer.status) \(answer.body)")
        }
        #expect(server.process.isRunning)
        #expect(server.log.contains("\(clean.path): the database is damaged: organization row 1: type holds 'shop'")
                && server.log.contains("\(clean.path): the database is damaged: organization row 2: latitude holds the number 1000000000.0"),
                "\(server.log.suffix(800))")
        #expect(try server.get("/").status == 200)
        _ = server.stop()
    }

    @Test("a database migrated by a newer hubgeo is never written: import and localize refuse it naming the migration; queries read it, and a query the newer schema breaks names the migration")
    func newerDatabase() throws {
        let clean = try Clean()
        let (path, cli) = try clean.damaged("newer", """
            INSERT INTO grdb_migrations (identifier) VALUES ('v9 from the future'); PRAGMA wal_checkpoint(TRUNCATE);
            """)
        // What the file holds (sqlite3's hash of every table's content), and its bytes.
        func contents() throws -> String { try Self.sqlite(path, ".sha3sum").text + (try ForeignDatabaseTests.sha256(path)) }
        let hash = try contents()
        for arguments in [["import"], ["localize", "--lang", "en", "--offline"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr.suffix(600))")
            #expect(result.stderr.contains("\(path): made by a newer hubgeo (it has the migration \"v9 from the future\"")
                    && result.stderr.contains("does not write to it"), "\(arguments): \(result.stderr.suffix(600))")
            #expect(try contents() == hash, "\(arguments) wrote into the newer database")
        }
        let near = try cli.run(["near", "53", "6.5", "--km", "20"])
        #expect(near.status == 0 && near.stdout.contains("Fotoclub Afovera"), "\(near.stderr)")

        // A newer hubgeo that moved a column the queries read: the failure names the newer
        // migration, not SQLite's "no such column"; the same change without the migration is told as it is.
        let moved = "ALTER TABLE organization RENAME COLUMN search_key TO search_text; PRAGMA wal_checkpoint(TRUNCATE);"
        let (_, newer) = try clean.damaged("newer-moved", "INSERT INTO grdb_migrations (identifier) VALUES ('v9 from the future')", moved)
        let search = try newer.run(["search", "Afovera"])
        #expect(search.status == 1 && search.stdout.isEmpty, "\(search.stdout)\(search.stderr)")
        #expect(search.stderr.contains("made by a newer hubgeo (it has the migration \"v9 from the future\"")
                && search.stderr.contains("reads only what it knows") && !search.stderr.contains("no such column"), "\(search.stderr)")
        let (_, known) = try clean.damaged("moved", moved)
        let plain = try known.run(["search", "Afovera"])
        #expect(plain.status == 1 && plain.stderr.contains("no such column") && !plain.stderr.contains("newer"), "\(plain.stderr)")
    }
}
