import CPOSIX
import Foundation
import GRDB
import HubGeoTestSupport
import Testing

/// `-o` writes where a user means it to: devices and open descriptors in place (in a private
/// `/dev`, never the machine's), a regular file replaced whole with its permissions kept, a
/// symbolic link's target rather than the link, and never over the database being read.
@Suite("Output targets of export and map")
struct OutputTargetTests {
    @Test("-o /dev/stdout, /dev/stderr, /dev/null and /proc/self/fd/1 write in place and leave /dev as it was")
    func devicesAreWrittenInPlace() throws {
        let home = try TestPaths.temporaryDirectory()
        let result = try PrivateDevices.run("""
            "$HUBGEO_BIN" stats > /dev/null 2>&1
            ls -lA /dev > dev-before.txt
            "$HUBGEO_BIN" export geojson -o /dev/stdout > stdout.geojson; echo "stdout exit $?"
            "$HUBGEO_BIN" export kml -o /dev/stderr 2> stderr.kml; echo "stderr exit $?"
            "$HUBGEO_BIN" export geojson -o /proc/self/fd/1 > fd.geojson; echo "fd exit $?"
            "$HUBGEO_BIN" export geojson -o /dev/fd/1 > devfd.geojson; echo "devfd exit $?"
            "$HUBGEO_BIN" map -o /dev/stdout > map.html; echo "map exit $?"
            "$HUBGEO_BIN" export geojson -o /dev/null; echo "null exit $?"
            "$HUBGEO_BIN" map -o /dev/null; echo "map null exit $?"
            echo first > appended.geojson
            "$HUBGEO_BIN" export geojson -o /dev/stdout >> appended.geojson; echo "append exit $?"
            ls -lA /dev > dev-after.txt
            cmp -s dev-before.txt dev-after.txt && echo "dev unchanged"
            [ -c /dev/null ] && [ -L /dev/stdout ] && [ -L /dev/stderr ] && echo "devices intact"
            """, home: home)
        let output = result.text + result.stderr
        for name in ["stdout", "stderr", "fd", "devfd", "map", "null", "map null", "append"] {
            #expect(result.text.contains("\n\(name) exit 0") || result.text.hasPrefix("\(name) exit 0"), "\(name): \(output)")
        }
        let devAfter = (try? String(contentsOfFile: home.path("dev-after.txt"), encoding: .utf8)) ?? "(no listing)"
        #expect(result.text.contains("dev unchanged"), "\(output)\n\(devAfter)")
        #expect(result.text.contains("devices intact"), "\(output)")
        let geojson = try String(contentsOfFile: home.path("stdout.geojson"), encoding: .utf8)
        #expect(geojson.hasPrefix("{\"type\":\"FeatureCollection\""), "\(geojson.prefix(80))")
        #expect(try String(contentsOfFile: home.path("fd.geojson"), encoding: .utf8) == geojson)
        #expect(try String(contentsOfFile: home.path("devfd.geojson"), encoding: .utf8) == geojson)
        #expect(try String(contentsOfFile: home.path("stderr.kml"), encoding: .utf8).contains("<kml"))
        #expect(try String(contentsOfFile: home.path("map.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(try String(contentsOfFile: home.path("appended.geojson"), encoding: .utf8) == "first\n" + geojson,
                "appending through /dev/stdout keeps what the file held")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.url.path).filter { $0.contains(".hubgeo-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("-o to a FIFO writes into it, as cat > FIFO would")
    func fifoIsWrittenInPlace() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let fifo = home.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$0.out\"", fifo]
        try reader.run()
        let result = try cli.run(["export", "geojson", "-o", fifo])
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var status = hubgeo_file_status()
        #expect(hubgeo_lstat(fifo, &status) == 0 && status.mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        #expect(try String(contentsOfFile: fifo + ".out", encoding: .utf8).hasPrefix("{\"type\":\"FeatureCollection\""))
    }

    @Test("replacing a file keeps its permissions, and a symbolic link's target is replaced, not the link")
    func replacedFilesKeepModeAndLinks() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let privateFile = home.path("private.geojson")
        try "old".write(toFile: privateFile, atomically: false, encoding: .utf8)
        #expect(chmod(privateFile, 0o600) == 0)
        let exported = try cli.run(["export", "geojson", "-o", privateFile])
        #expect(exported.status == 0, "\(exported.stderr)")
        var status = hubgeo_file_status()
        #expect(hubgeo_stat(privateFile, &status) == 0 && status.mode & 0o7777 == 0o600, "mode is now \(String(status.mode & 0o7777, radix: 8))")

        try FileManager.default.createDirectory(atPath: home.path("real"), withIntermediateDirectories: true)
        let target = home.path("real/map.html")
        try "old page".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(chmod(target, 0o640) == 0)
        let link = home.path("latest.html")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/map.html")
        let mapped = try cli.run(["map", "-o", link])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/map.html", "the link was replaced")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(hubgeo_stat(target, &status) == 0 && status.mode & 0o7777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path("real")) == ["map.html"])

        let dangling = home.path("dangling.kml")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere/x.kml")
        let refused = try cli.run(["export", "kml", "-o", dangling])
        #expect(refused.status == 1 && refused.stderr.contains("symbolic link to nowhere/x.kml, which does not exist"), "\(refused.stderr)")
    }

    @Test("-o never writes over the database being read, whatever name reaches it")
    func theDatabaseIsNeverOverwritten() throws {
        let home = try TestPaths.temporaryDirectory()
        let database = home.path("self.sqlite")
        let cli = CLIRunner(database: database, home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        #expect(link(database, home.path("hard.sqlite")) == 0)
        try FileManager.default.createSymbolicLink(atPath: home.path("soft.sqlite"), withDestinationPath: "self.sqlite")
        let hash = try ForeignDatabaseTests.sha256(database)
        for (command, output) in [(["export", "geojson"], database), (["export", "kml"], home.path("./self.sqlite")),
                                  (["map"], home.path("hard.sqlite")), (["export", "geojson"], home.path("soft.sqlite"))] {
            let result = try cli.run(command + ["--db", database, "-o", output])
            #expect(result.status == 1, "\(command) -o \(output): \(result.stderr)")
            #expect(result.stderr.contains("is the database being read"), "\(result.stderr)")
        }
        #expect(try ForeignDatabaseTests.sha256(database) == hash)
        let near = try cli.run(["near", "51.4", "5.4"])
        #expect(near.status == 0 && near.stdout.contains("Fotogroep Luminos"), "\(near.stderr)")
    }

    /// A database made by hubgeo from a one-museum tree, then changed by a second import whose
    /// commit stays in `-wal`: `reader` keeps a connection open, so the importer cannot checkpoint at exit.
    static func databaseWithCommitInLog(in home: TemporaryDirectory) throws -> (cli: CLIRunner, database: String, reader: DatabaseQueue) {
        let database = home.path("db/db.sqlite")
        let cli = CLIRunner(database: database, home: home.url.path)
        let tree = home.path("tree/root.level1.json")
        func write(_ museum: String) throws {
            try FileManager.default.createDirectory(atPath: home.path("tree"), withIntermediateDirectories: true)
            try Level1Builder.level1(museums: [.init(town: "Waalre", fullName: museum, nickName: "m", latitude: 51.39, longitude: 5.46)])
                .write(toFile: tree, atomically: false, encoding: .utf8)
        }
        try write("Old Museum")
        #expect(try cli.run(["import", tree]).status == 0)
        let reader = try DatabaseQueue(path: database, configuration: { var c = Configuration(); c.readonly = true; return c }())
        _ = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") }
        try write("New Museum")
        let changed = try cli.run(["import", tree])
        #expect(changed.status == 0, "\(changed.stderr)")
        var status = hubgeo_file_status()
        #expect(hubgeo_stat(database + "-wal", &status) == 0 && status.size > 0, "the change is not in the -wal")
        return (cli, database, reader)
    }

    @Test("-o never replaces the database's -wal, -shm or -journal, by path, link, hard link, or name before it exists")
    func theDatabaseCompanionsAreNeverOverwritten() throws {
        let home = try TestPaths.temporaryDirectory()
        let (cli, database, reader) = try Self.databaseWithCommitInLog(in: home)
        let wal = database + "-wal", shm = database + "-shm"
        #expect(link(wal, home.path("hard-wal.geojson")) == 0)
        try FileManager.default.createSymbolicLink(atPath: home.path("soft-shm.geojson"), withDestinationPath: shm)
        try FileManager.default.createSymbolicLink(atPath: home.path("dblink"), withDestinationPath: "db")
        // Readers write their marks into -shm: it must stay the same file, not the same bytes.
        func inode(_ path: String) -> UInt64 { var status = hubgeo_file_status(); return hubgeo_stat(path, &status) == 0 ? status.inode : 0 }
        let hashes = try [database, wal].map(ForeignDatabaseTests.sha256), shmInode = inode(shm)
        let cases: [([String], String, String)] = [
            (["export", "geojson"], wal, "write-ahead log"), (["map"], wal, "write-ahead log"),
            (["export", "kml"], home.path("dblink/db.sqlite-wal"), "write-ahead log"),
            (["export", "geojson"], home.path("db/./db.sqlite-shm"), "shared-memory index"),
            (["map"], home.path("hard-wal.geojson"), "write-ahead log"),
            (["export", "geojson"], home.path("soft-shm.geojson"), "shared-memory index"),
            (["export", "geojson"], database + "-journal", "rollback journal"), (["map"], database + "-journal", "rollback journal"),
        ]
        for (command, output, role) in cases {
            let result = try cli.run(command + ["--db", database, "-o", output])
            #expect(result.status == 1, "\(command) -o \(output): \(result.stderr)")
            #expect(result.stderr.contains("is the \(role) of the database being read"), "\(command) -o \(output): \(result.stderr)")
        }
        #expect(try [database, wal].map(ForeignDatabaseTests.sha256) == hashes)
        #expect(inode(shm) == shmInode)
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"))
        // Through a symbolic link to the database, SQLite names the companions after its target.
        try FileManager.default.createSymbolicLink(atPath: home.path("link.sqlite"), withDestinationPath: database)
        let viaLink = try cli.run(["export", "geojson", "--db", home.path("link.sqlite"), "-o", wal])
        #expect(viaLink.status == 1 && viaLink.stderr.contains("write-ahead log"), "\(viaLink.stderr)")
        try reader.close()
        let shown = try cli.run(["search", "Museum", "--db", database])
        #expect(shown.stdout.contains("New Museum") && !shown.stdout.contains("Old Museum"), "\(shown.stdout)\(shown.stderr)")
        // A database just made has no -wal nor -shm yet: their names are refused all the same.
        let fresh = home.path("fresh.sqlite")
        #expect(try cli.run(["import", home.path("tree/root.level1.json"), "--db", fresh]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: fresh + "-wal") && !FileManager.default.fileExists(atPath: fresh + "-shm"))
        for (command, suffix) in [(["export", "geojson"], "-wal"), (["map"], "-shm")] {
            let byName = try cli.run(command + ["--db", fresh, "-o", fresh + suffix])
            #expect(byName.status == 1 && byName.stderr.contains("of the database being read"), "\(byName.stderr)")
            // SQLite itself makes them as the query reads (the output never gets there).
            let made = FileManager.default.contents(atPath: fresh + suffix) ?? Data()
            #expect(!made.starts(with: Data("{".utf8)) && !made.starts(with: Data("<".utf8)), "the output was written as \(suffix)")
        }
        // Names that only look alike are written.
        let beside = try cli.run(["export", "geojson", "--db", database, "-o", database + "-wal.geojson"])
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    @Test("-o a directory is refused with what it is")
    func directoryIsRefused() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let result = try cli.run(["export", "geojson", "-o", home.url.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is a directory"), "\(result.stderr)")
    }
}
