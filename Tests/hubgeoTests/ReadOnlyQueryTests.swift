import Foundation
import GRDB
import HubGeoTestSupport
import Testing

/// Queries open the database read-only and never change it; a database nobody may write still
/// answers; a directory that cannot be created for `--db` gets a plain message.
@Suite("Read-only queries", .serialized)
struct ReadOnlyQueryTests {
    static let queries: [[String]] = [
        ["near", "51.4", "5.4", "--km", "20"], ["near", "51.4", "5.4", "--nearest", "3", "--format", "json"],
        ["bbox", "50", "3", "54", "8", "--format", "geojson"], ["search", "foto", "--lang", "nl"],
        ["show", "fgWaalre"], ["stats"], ["export", "kml", "--near", "51.4", "5.4", "--km", "30"],
    ]

    static func sha256(_ path: String) throws -> String {
        String(try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [path]).text.prefix(64))
    }

    @Test("queries leave the database byte for byte as it was, and create no journal")
    func queriesNeverWrite() throws {
        let home = try TestPaths.temporaryDirectory()
        let database = home.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: home.url.path)
        // The first query imports the built-in data: the one write a query makes.
        let first = try cli.run(["stats"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("imported the built-in Photo Club Hub data"))
        let before = try Self.sha256(database)
        for arguments in Self.queries {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try Self.sha256(database) == before, "\(arguments) changed the database")
        }
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"))
    }

    /// Runs the built binary as user nobody (the tests run as root, who may write anything).
    static func runAsNobody(_ arguments: [String], database: String) throws -> CommandRunner.Result {
        try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                              ["--reuid", "65534", "--regid", "65534", "--clear-groups", try CLIRunner.binary().path]
                                  + arguments + ["--db", database],
                              environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "HUBGEO_CONFIG": "/nonexistent"])
    }

    @Test("a database in a directory nobody may write answers queries; writers fail plainly")
    func readOnlyDatabase() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            Issue.record("needs root and setpriv (util-linux) to run hubgeo as another user")
            return
        }
        let home = try TestPaths.temporaryDirectory()
        let folder = home.path("readonly")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = folder + "/hub.sqlite"
        let imported = try CommandRunner.hubgeo(["import", "--db", database])
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = try Self.sha256(database)
        // Readable by all, writable by nobody but root: like a file on read-only media or owned by another user.
        chmod(database, 0o444)
        chmod(folder, 0o555)
        chmod(home.url.path, 0o755)
        defer { chmod(folder, 0o755) }
        for arguments in Self.queries {
            let result = try Self.runAsNobody(arguments, database: database)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("readonly"), "\(result.stderr)")
        }
        let near = try Self.runAsNobody(["near", "51.4", "5.4", "--km", "20", "--format", "json"], database: database)
        #expect(near.text.contains("\"fullName\" : \"Fotogroep Waalre\""))
        #expect(try Self.sha256(database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["hub.sqlite"])
        // The writers say why they cannot write.
        let importAgain = try Self.runAsNobody(["import"], database: database)
        #expect(importAgain.status == 1)
        #expect(importAgain.stderr.contains("hub.sqlite"), "\(importAgain.stderr)")
    }

    @Test("where SQLite cannot use -shm, a -wal holding commits is refused with why, never read around; an empty one is not")
    func readOnlyPlaceWithCommitsInTheLog() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            Issue.record("needs root and setpriv (util-linux) to run hubgeo as another user")
            return
        }
        let home = try TestPaths.temporaryDirectory()
        let (cli, database, reader) = try OutputTargetTests.databaseWithCommitInLog(in: home)
        try reader.close()  // read-only: it cannot checkpoint, so the commit stays in the -wal
        let folder = (database as NSString).deletingLastPathComponent
        let wal = database + "-wal", shm = database + "-shm"
        unlink(shm)
        let before = try [database, wal].map(Self.sha256)
        chmod(folder, 0o555)
        chmod(home.url.path, 0o755)
        defer { chmod(folder, 0o755) }
        func expectRefused(_ result: CommandRunner.Result, _ why: String, _ context: String) {
            #expect(result.status == 1, "\(context): \(result.text)\(result.stderr)")
            #expect(!result.text.contains("Old Museum"), "\(context): the data before the commit was answered: \(result.text)")
            #expect(result.stderr.contains("\(database): cannot open database: its write-ahead log \(wal) holds changes, "
                                           + "and SQLite cannot open \(shm) beside it (\(why))"), "\(context): \(result.stderr)")
            #expect(result.stderr.contains("give this user write access"), "\(context): \(result.stderr)")
        }
        // A folder this user may not write, without -shm.
        expectRefused(try Self.runAsNobody(["search", "Museum"], database: database), "read-only folder", "read-only folder")
        expectRefused(try Self.runAsNobody(["export", "geojson"], database: database), "read-only folder", "export")
        // A -shm of another user's that this one may not open.
        #expect(FileManager.default.createFile(atPath: shm, contents: nil, attributes: [.posixPermissions: 0o600]))
        expectRefused(try Self.runAsNobody(["near", "51.4", "5.4"], database: database),
                      "Permission denied; it belongs to another user", "another user's -shm")
        unlink(shm)
        // A read-only mount.
        var environment = cli.environment
        environment["HUBGEO_BIN"] = try CLIRunner.binary().path
        environment["FOLDER"] = folder
        let mounted = try ImportFaultTests.inMountNamespace("""
            mount --bind "$FOLDER" "$FOLDER" && mount -o remount,bind,ro "$FOLDER" || exit 99
            "$HUBGEO_BIN" search Museum --db "$FOLDER/db.sqlite"
            """, environment: environment)
        #expect(mounted.status != 99, "could not mount: \(mounted.stderr)")
        expectRefused(mounted, "read-only file system", "read-only mount")
        #expect(try [database, wal].map(Self.sha256) == before, "the database or its log changed")
        #expect(!FileManager.default.fileExists(atPath: shm))

        // Once checkpointed where it may be written, the folder answers again; an empty -wal is no obstacle.
        chmod(folder, 0o755)
        #expect(try cli.run(["import", home.path("tree/root.level1.json"), "--db", database]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: wal))
        #expect(FileManager.default.createFile(atPath: wal, contents: nil))
        unlink(shm)
        chmod(folder, 0o555)
        let answered = try Self.runAsNobody(["search", "Museum"], database: database)
        #expect(answered.status == 0 && answered.text.contains("New Museum"), "\(answered.text)\(answered.stderr)")
    }

    @Test("a --db directory that cannot be created gets a plain message")
    func uncreatableDirectory() throws {
        let home = try TestPaths.temporaryDirectory()
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: home.path("file")))
        let result = try CommandRunner.hubgeo(["near", "51.4", "5.4", "--db", home.path("file/sub/hub.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot create directory \(home.path("file/sub")): Not a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
        #expect(!result.stderr.contains("Code="), "\(result.stderr)")

        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let locked = home.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0o555)
        chmod(home.url.path, 0o755)
        defer { chmod(locked, 0o755) }
        let denied = try Self.runAsNobody(["stats"], database: locked + "/data/hub.sqlite")
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("cannot create directory \(locked)/data: Permission denied"), "\(denied.stderr)")
        #expect(!denied.stderr.contains("NSCocoaErrorDomain"), "\(denied.stderr)")
    }
}
