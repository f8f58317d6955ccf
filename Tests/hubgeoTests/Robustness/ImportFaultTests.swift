import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// Faults around creating and writing the database: concurrent first imports, a full disk, a
/// database left half-made, NUL characters in names.
@Suite("Import faults: concurrent first imports, full disk, half-made databases, control characters")
struct ImportFaultTests {
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func organizationCount(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? -1 }
    }

    static func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".staging") || $0.contains(".staging-") }
    }

    @Test("a failed first import never removes the database that a concurrent import made")
    func failedFirstImportKeepsTheConcurrentOne() throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.write("{\"clubs\": [", to: directory.path("bad/root.level1.json"))
        let cli = CLIRunner(database: directory.path("unused.sqlite"), home: directory.url.path)
        for round in 0..<8 {
            let database = directory.path("hub\(round).sqlite")
            let binary = try CLIRunner.binary()
            let good = try Self.start(binary, ["import", "--db", database], environment: cli.environment)
            let bad = try Self.start(binary, ["import", directory.path("bad"), "--db", database], environment: cli.environment)
            #expect(Self.wait(good, timeout: 120) && Self.wait(bad, timeout: 120))
            #expect(good.terminationStatus == 0, "round \(round): the good import failed")
            #expect(bad.terminationStatus == 1, "round \(round): the broken import did not fail")
            #expect(FileManager.default.fileExists(atPath: database), "round \(round): the database is gone")
            #expect(try Self.organizationCount(database) == 131, "round \(round)")
        }
        #expect(try Self.leftovers(in: directory.url.path).isEmpty)
    }

    @Test("a failed first import leaves nothing behind, and a later one works")
    func failedFirstImportLeavesNothing() throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.write("{\"clubs\": [", to: directory.path("bad/root.level1.json"))
        let database = directory.path("db/hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        let failed = try cli.run(["import", directory.path("bad")])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("malformed JSON"))
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(try Self.leftovers(in: directory.path("db")).isEmpty)
        let imported = try cli.run(["import"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.organizationCount(database) == 131)
    }

    /// Runs `script` in a private mount namespace (as root, or as a mapped root in a user
    /// namespace), where it may mount a small tmpfs: a real full disk, not a simulation.
    static func inMountNamespace(_ script: String, environment: [String: String]) throws -> CommandRunner.Result {
        try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unshare"), ["--mount", "--map-root-user", "/bin/sh", "-c", script],
                              environment: environment, timeout: 120)
    }

    @Test("a first use on a full disk says disk full, and works once space is freed", arguments: ["16k", "64k", "300k", "480k"])
    func fullDiskOnFirstUse(size: String) throws {
        let directory = try TestPaths.temporaryDirectory()
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        var environment = CLIRunner(database: mountPoint + "/hub.sqlite", home: directory.url.path).environment
        environment["HUBGEO_BIN"] = try CLIRunner.binary().path
        environment["SMALL"] = mountPoint
        let result = try Self.inMountNamespace("""
            mount -t tmpfs -o size=\(size) tmpfs "$SMALL" || exit 99
            "$HUBGEO_BIN" near 51.4 5.4; echo "first exit $?"
            ls -a "$SMALL"
            "$HUBGEO_BIN" import; echo "import on a full disk exit $?"
            mount -o remount,size=16m "$SMALL"
            "$HUBGEO_BIN" near 51.4 5.4; echo "after freeing exit $?"
            "$HUBGEO_BIN" import; echo "import exit $?"
            """, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.text + result.stderr
        #expect(output.contains("first exit 1"), "\(output)")
        #expect(output.contains("import on a full disk exit 1"), "\(output)")
        #expect(result.stderr.contains("disk full (SQLITE_FULL)"), "\(output)")
        #expect(!output.contains("no column"), "\(output)")
        #expect(!output.contains(".staging"), "a staging file was left or named: \(output)")
        #expect(output.contains("after freeing exit 0"), "\(output)")
        #expect(output.contains("Fotogroep Luminos"), "\(output)")
        #expect(output.contains("import exit 0"), "\(output)")
    }

    @Test("an import from a URL that fails on a full disk says disk full, and queries keep reading the old data")
    func fullDiskImportFromAURLLeavesTheDatabaseReadable() throws {
        let tree = try DocumentCacheTests.Tree(lifetime: 120)
        let changed = try TestPaths.temporaryDirectory()
        try DocumentCacheTests.Tree.write(version: "B", clubs: DocumentCacheTests.Tree.clubCount, into: changed)
        let mountPoint = tree.home.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        var environment = CLIRunner(database: mountPoint + "/hub.sqlite", home: tree.home.url.path).environment
        environment["HUBGEO_BIN"] = try CLIRunner.binary().path
        environment["SMALL"] = mountPoint
        environment["ROOT"] = tree.root
        environment["SERVED"] = tree.directory.url.path
        environment["CHANGED"] = changed.url.path
        // The first import makes the database under a staging name: no -wal, no -shm beside it. The
        // next one has to create -shm, which SQLite cannot grow to 32 KiB on a full disk.
        let result = try Self.inMountNamespace("""
            mount -t tmpfs -o size=2m tmpfs "$SMALL" || exit 99
            "$HUBGEO_BIN" import "$ROOT" > /dev/null; echo "first import exit $?"
            head -c 4m /dev/zero > "$SMALL/fill" 2> /dev/null
            cp "$CHANGED"/*.json "$SERVED"/ && touch -d '+1 minute' "$SERVED"/*.json
            "$HUBGEO_BIN" import "$ROOT"; echo "import on a full disk exit $?"
            "$HUBGEO_BIN" search Museum; echo "search exit $?"
            "$HUBGEO_BIN" export geojson > /dev/null; echo "export exit $?"
            rm "$SMALL/fill"
            "$HUBGEO_BIN" import "$ROOT" > /dev/null; echo "import after freeing exit $?"
            "$HUBGEO_BIN" search Museum; echo "search after freeing exit $?"
            """, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.text + result.stderr
        #expect(output.contains("first import exit 0"), "\(output)")
        #expect(output.contains("import on a full disk exit 1"), "\(output)")
        #expect(result.stderr.contains("disk full (SQLITE_FULL): no space left on the file system of \(mountPoint) (SQLite: disk I/O error)"),
                "\(output)")
        #expect(output.contains("search exit 0") && output.contains("export exit 0"), "\(output)")
        #expect(result.stderr.components(separatedBy: "no space left").count == 2, "said once, by the import: \(output)")
        let beforeFreeing = result.text.components(separatedBy: "search exit 0")[0]
        #expect(beforeFreeing.contains("Museum A") && !beforeFreeing.contains("Museum B"), "the old data: \(output)")
        #expect(output.contains("import after freeing exit 0") && output.contains("search after freeing exit 0"), "\(output)")
        #expect(result.text.components(separatedBy: "search exit 0").last?.contains("Museum B") == true, "\(output)")
    }

    @Test("a database left half-made by an older version is rebuilt with a note")
    func halfMadeDatabaseIsRebuilt() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        // What an older hubgeo left on a full disk: the metadata and the tables, but
        // AddGeometryColumn failed silently and the migrations were recorded as done.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try SpatiaLiteExtension.load(into: db) }
        let queue = try DatabaseQueue(path: database, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "SELECT InitSpatialMetaData(1, 'WGS84')")
            try db.execute(sql: """
                CREATE TABLE organization (id INTEGER PRIMARY KEY, stable_id TEXT NOT NULL UNIQUE, town TEXT, full_name TEXT);
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1 organizations'), ('v2 geocode cache');
                """)
        }
        try queue.close()
        let cli = CLIRunner(database: database, home: directory.url.path)
        let near = try cli.run(["near", "51.4", "5.4"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stderr.contains("half-made"), "\(near.stderr)")
        #expect(near.stdout.contains("Fotogroep Luminos"))
        let again = try cli.run(["import"])
        #expect(again.status == 0 && !again.stderr.contains("half-made"), "\(again.stderr)")
        #expect(again.stdout.contains("131 unchanged"), "\(again.stdout)")
    }

    static func nulTree(in directory: TemporaryDirectory) throws -> String {
        let root = directory.path("nul/root.level1.json")
        try Self.write("""
            {"clubs": [
              {"idPlus": {"town": "Waalre", "fullName": "Nul\\u0000Club", "nickName": "nul1"},
               "coordinates": {"latitude": 51.39, "longitude": 5.46}},
              {"idPlus": {"town": "Waalre", "fullName": "Nul\\u0000Other", "nickName": "nul2"},
               "coordinates": {"latitude": 51.40, "longitude": 5.47}},
              {"idPlus": {"town": "Eind\\u001Fhoven", "fullName": "Unit Club", "nickName": "unit"},
               "coordinates": {"latitude": 51.44, "longitude": 5.48}},
              {"idPlus": {"town": "Waalre", "fullName": "Fotogroep Waalre", "nickName": "fgWaalre"},
               "coordinates": {"latitude": 51.39, "longitude": 5.46},
               "optional": {"remark": [{"language": "EN", "value": "before\\u0000after"}]}}
            ]}
            """, to: root)
        return root
    }

    @Test("a NUL in a name is reported where it is, by import and by validate, never cut or a raw SQL error")
    func controlCharactersInIdentities() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try Self.nulTree(in: directory)
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        let imported = try cli.run(["import", root])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("UNIQUE") && !imported.stderr.contains("INSERT"), "\(imported.stderr)")
        #expect(imported.stderr.contains("\(root):2: clubs[0].idPlus.fullName: warning: holds the control character U+0000"), "\(imported.stderr)")
        #expect(imported.stderr.contains("\(root):4: clubs[1].idPlus.fullName: warning: holds the control character U+0000"), "\(imported.stderr)")
        #expect(imported.stderr.contains("clubs[2].idPlus.town: warning: holds the control character U+001F"), "\(imported.stderr)")
        #expect(imported.stdout.contains("1 added"), "\(imported.stdout)")
        let validated = try cli.run(["validate", root])
        #expect(validated.status == 1)
        #expect(validated.stdout.contains("\(root):2:33: clubs[0].idPlus.fullName: error: holds the control character U+0000"), "\(validated.stdout)")
        #expect(validated.stdout.contains("clubs[1].idPlus.fullName: error: holds the control character U+0000"), "\(validated.stdout)")
        // Other text is stored whole: a NUL inside a remark is kept, not taken for its end.
        let queue = try DatabaseQueue(path: database)
        let stored = try queue.read { db in try Data.fetchOne(db, sql: "SELECT CAST(value AS BLOB) FROM organization_remark") }
        #expect(stored == Data("before\u{0}after".utf8))
    }

    @Test("a failed SQLite call passes through as GRDB's DatabaseError, with its result code and SQL; users see neither raw")
    func storeErrorsKeepCodeAndSQL() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        do {
            _ = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT no_such_column FROM organization") }
            Issue.record("no error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.sql == "SELECT no_such_column FROM organization")
            #expect(error.userMessage == "database error: no such column: no_such_column (SQLite result code 1)")
        }
    }

    @Test("a failed SQLite call under a query: exit 1, the problem and its result code, no SQL")
    func databaseErrorShownWithoutSQL() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        #expect(try cli.run(["import"]).status == 0)
        // A hubgeo database whose table lost a column the queries read.
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in try db.execute(sql: "ALTER TABLE organization DROP COLUMN wikipedia") }
        try queue.close()
        let result = try cli.run(["near", "51.4", "5.4"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Error: database error: no such column: o.wikipedia (SQLite result code 1)"), "\(result.stderr)")
        #expect(!result.stderr.contains("SELECT"), "\(result.stderr)")
    }

    @Test("a town renamed in Level 1 is reported as a probable rename besides the removal and the addition")
    func probableRename() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = directory.path("tree/root.level1.json")
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        func write(town: String, nickName: String = "fgWaalre", longitude: Double = 5.46) throws {
            try Self.write(Level1Builder.level1(clubs: [
                .init(town: town, fullName: "Fotogroep Waalre", nickName: nickName, latitude: 51.39, longitude: longitude),
                .init(town: "Eindhoven", fullName: "Fotoclub Eindhoven", nickName: "fcEindhoven", latitude: 51.44, longitude: 5.48),
            ]), to: root)
        }
        try write(town: "Walre")
        #expect(try cli.run(["import", root]).status == 0)
        try write(town: "Waalre", longitude: 5.465)
        let renamed = try cli.run(["import", root, "--verbose"])
        #expect(renamed.status == 0)
        #expect(renamed.stdout.contains("removed   Fotogroep Waalre (Walre)"))
        #expect(renamed.stdout.contains("added     Fotogroep Waalre (Waalre)"))
        #expect(renamed.stdout.contains("renamed?  Fotogroep Waalre (Walre) -> Fotogroep Waalre (Waalre) (same full name, 348 m apart)"), "\(renamed.stdout)")
        #expect(renamed.stdout.contains("1 added, 0 changed, 1 removed, 1 unchanged (1 probable rename)"), "\(renamed.stdout)")
        // Far away, it is no rename.
        try write(town: "Walre", longitude: 6.0)
        let moved = try cli.run(["import", root])
        #expect(!moved.stdout.contains("renamed?"), "\(moved.stdout)")
    }

    static func start(_ binary: URL, _ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process`; SIGKILL after `timeout` seconds (returns false then).
    static func wait(_ process: Process, timeout: TimeInterval) -> Bool {
        guard !Waiting.exit(of: process, timeout: timeout) else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }
}
