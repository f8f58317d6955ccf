import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing

/// hubgeo writes only into a database it knows as its own: every command refuses another
/// program's SQLite file, a file that is not SQLite, a directory and a device, and leaves them as
/// they were; databases made before the application id still open, and get it at their next import.
@Suite("Foreign files given as the database")
struct ForeignDatabaseTests {
    /// Every command that opens the database, as a user would give them.
    static let commands: [[String]] = [
        ["stats"], ["near", "51.4", "5.4", "--km", "20"], ["bbox", "50", "3", "54", "8"], ["search", "foto"],
        ["show", "fgWaalre"], ["export", "geojson"], ["map", "-o", "-"], ["import"], ["localize", "--lang", "en", "--offline"],
        ["sources"], ["validate", "--geocode", "--offline"], ["serve", "--port", "0"],
    ]

    static func sha256(_ path: String) throws -> String {
        String(try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [path]).text.prefix(64))
    }

    static func sqlite(_ path: String, _ sql: String) throws -> CommandRunner.Result {
        try CommandRunner.tool("sqlite3", [path, sql], package: "sqlite3")
    }

    /// Runs every command on `database` and checks that each fails with `message`, and that the
    /// directory holding it is left exactly as it was.
    static func expectRefused(_ database: String, in directory: TemporaryDirectory, message: String) throws {
        let cli = CLIRunner(database: database, home: directory.url.path)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let hash = try sha256(database)
        for arguments in commands {
            let result = try cli.run(arguments, timeout: 30)
            #expect(result.status == 1, "\(arguments): exit \(result.status): \(result.stderr)")
            #expect(result.stderr.contains(database) && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(try sha256(database) == hash, "\(arguments) changed \(database)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before,
                    "\(arguments) left files beside \(database)")
        }
    }

    @Test("another program's SQLite file with an organization table is refused by every command and kept intact")
    func foreignTablesAreRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("other.sqlite")
        #expect(try Self.sqlite(database, """
            CREATE TABLE organization(id INTEGER, name TEXT); INSERT INTO organization VALUES (1, 'ACME');
            CREATE TABLE invoices(n INTEGER, amount REAL); INSERT INTO invoices VALUES (1, 99.5);
            """).status == 0)
        try Self.expectRefused(database, in: directory, message: "not a hubgeo database: it holds tables that are not hubgeo's (invoices, organization)")
        #expect(try Self.sqlite(database, "SELECT amount FROM invoices").text == "99.5\n")
    }

    @Test("a SQLite file of another application (its application id) and a file that is not SQLite are refused")
    func otherApplicationsAreRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        let geopackage = directory.path("places.gpkg")
        #expect(try Self.sqlite(geopackage, "PRAGMA application_id = 1196444487; CREATE TABLE t(x);").status == 0)
        try Self.expectRefused(geopackage, in: directory, message: "another application (application id 0x47504b47)")
        let text = directory.path("notes.txt")
        try "these are my notes, not a database\n".write(toFile: text, atomically: false, encoding: .utf8)
        try Self.expectRefused(text, in: directory, message: "not a hubgeo database: it is not a SQLite database")
    }

    @Test("a directory given as the database is refused with what it is")
    func directoryIsRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        let folder = directory.path("data")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cli = CLIRunner(database: folder, home: directory.url.path)
        for arguments in [["near", "51.4", "5.4"], ["import"], ["localize", "--lang", "en", "--offline"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(folder): cannot be used as the database: it is a directory"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("disk I/O error"), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "\(arguments) wrote into the directory")
        }
    }

    @Test("--db /dev/null is refused as a device and creates no journal beside it (private /dev)")
    func deviceIsRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        let result = try PrivateDevices.run("""
            for command in "near 51.4 5.4" "import" "stats"; do
                "$HUBGEO_BIN" $command --db /dev/null; echo "exit $?"
            done
            ls -A /dev
            [ -c /dev/null ] && echo "null is still a device"
            """, home: directory)
        #expect(result.text.components(separatedBy: "exit 1").count == 4, "\(result.text)\n\(result.stderr)")
        #expect(result.stderr.contains("/dev/null: cannot be used as the database: it is a character device"), "\(result.stderr)")
        #expect(!result.stderr.contains("disk I/O error"), "\(result.stderr)")
        #expect(!result.text.contains("null-journal") && !result.text.contains("null-wal"), "\(result.text)")
        #expect(result.text.contains("null is still a device"), "\(result.text)")
    }

    @Test("a database made before the application id still answers, and its next import stamps it")
    func unstampedHubgeoDatabaseStillOpens() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("old.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        #expect(try cli.run(["import"]).status == 0)
        #expect(try Self.sqlite(database, "PRAGMA application_id").text == "\(DatabaseFile.applicationID)\n")
        #expect(try Self.sqlite(database, "PRAGMA application_id = 0").status == 0)
        let near = try cli.run(["near", "51.4", "5.4", "--km", "20"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains("Fotogroep Luminos"))
        #expect(try Self.sqlite(database, "PRAGMA application_id").text == "0\n", "a query wrote the stamp")
        let imported = try cli.run(["import"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("131 unchanged"), "\(imported.stdout)")
        #expect(try Self.sqlite(database, "PRAGMA application_id").text == "\(DatabaseFile.applicationID)\n")
    }

    @Test("an empty file, or a SQLite file with no tables, becomes a hubgeo database")
    func emptyFilesAreUsed() throws {
        let directory = try TestPaths.temporaryDirectory()
        let empty = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let blank = directory.path("blank.sqlite")
        #expect(try Self.sqlite(blank, "CREATE TABLE t(x); DROP TABLE t;").status == 0)
        for database in [empty, blank] {
            let result = try CLIRunner(database: database, home: directory.url.path).run(["near", "51.4", "5.4"])
            #expect(result.status == 0, "\(database): \(result.stderr)")
            #expect(result.stdout.contains("Fotogroep Luminos"))
            #expect(try Self.sqlite(database, "PRAGMA application_id").text == "\(DatabaseFile.applicationID)\n")
        }
    }
}
