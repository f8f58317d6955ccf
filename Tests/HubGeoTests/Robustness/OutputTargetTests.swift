import Foundation
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
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
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
        var status = stat()
        #expect(stat(privateFile, &status) == 0 && status.st_mode & 0o7777 == 0o600, "mode is now \(String(status.st_mode & 0o7777, radix: 8))")

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
        #expect(stat(target, &status) == 0 && status.st_mode & 0o7777 == 0o640)
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

    @Test("-o a directory is refused with what it is")
    func directoryIsRefused() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let result = try cli.run(["export", "geojson", "-o", home.url.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is a directory"), "\(result.stderr)")
    }
}
