import CPOSIX
import Foundation
import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hubgeo tiles -o` in every format goes through the same publisher as `export -o` and `map -o`:
/// never over the database or its SQLite companions, refused at once when the target cannot take
/// it, the mode a new file would have, a device or FIFO written into, no temporary left by a
/// signal or a kill once the next run to the same name is done, no archive published once a
/// signal arrived, and no user's file deleted by replacing a tile folder.
@Suite("Output targets of tiles", .serialized)
struct TileOutputTests {
    /// Round 5's item 1: MBTiles and folders are never written onto the database's own files.
    @Test("tiles -o never writes the database's -wal, -shm or -journal, in any format")
    func theDatabaseCompanionsAreRefused() throws {
        let home = try TestPaths.temporaryDirectory()
        let database = home.path("db.sqlite")
        let cli = CLIRunner(database: database, home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        for format in ["mbtiles", "folder", "pmtiles"] {
            for suffix in ["-wal", "-shm", "-journal"] {
                let target = database + suffix
                let before = FileManager.default.fileExists(atPath: target)
                let result = try cli.run(["tiles", "--db", database, "-o", target, "--format", format])
                #expect(result.status == 1 && result.stderr.contains("of the database being read"), "\(format) \(suffix): \(result.stderr)")
                #expect(FileManager.default.fileExists(atPath: target) == before, "\(format) \(suffix) was written")
            }
            let itself = try cli.run(["tiles", "--db", database, "-o", database, "--format", format])
            #expect(itself.status == 1 && itself.stderr.contains("database being read"), "\(format): \(itself.stderr)")
        }
        #expect(OutputInterruptionTests.temporaries(in: home.url.path).isEmpty)
        #expect(try cli.run(["stats"]).status == 0, "the database still opens")
    }

    /// Round 5's item 2: an archive gets the mode a new file would, or keeps the replaced one's.
    @Test("a new MBTiles archive is 0666 & ~umask, a replaced one keeps its mode")
    func archiveModes() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        func mode(_ path: String) -> mode_t { var status = hubgeo_file_status(); return hubgeo_stat(path, &status) == 0 ? status.mode & 0o7777 : 0 }
        for (name, format) in [("new.mbtiles", "mbtiles"), ("new.pmtiles", "pmtiles"), ("newfolder", "folder")] {
            let written = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "umask 022 && exec \"$0\" \"$@\"", try CLIRunner.binary().path,
                                                 "tiles", "-o", home.path(name), "--format", format], environment: cli.environment)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(mode(home.path(name)) == (format == "folder" ? 0o755 : 0o644), "\(name): \(String(mode(home.path(name)), radix: 8))")
        }
        let existing = home.path("shared.mbtiles")
        #expect(try cli.run(["tiles", "-o", existing]).status == 0)
        #expect(chmod(existing, 0o640) == 0)
        #expect(try cli.run(["tiles", "-o", existing, "--max-zoom", "3"]).status == 0)
        #expect(mode(existing) == 0o640, "\(String(mode(existing), radix: 8))")
    }

    /// Round 5's item 3: MBTiles into a character device or FIFO writes into it, never replaces it.
    @Test("tiles -o a device or FIFO as MBTiles writes the archive's bytes into it and keeps the node")
    func devicesAndFIFOsAreWrittenInPlace() throws {
        let home = try TestPaths.temporaryDirectory()
        let result = try PrivateDevices.run("""
            export TMPDIR="$WORK/scratch"; mkdir "$TMPDIR"
            "$HUBGEO_BIN" stats > /dev/null 2>&1
            "$HUBGEO_BIN" tiles -o reference.mbtiles > /dev/null 2>&1
            mknod /dev/null-copy c 1 3 && mknod /dev/full-copy c 1 7 || exit 93
            "$HUBGEO_BIN" tiles -o /dev/null-copy --format mbtiles 2> null.err; echo "null exit $?"
            "$HUBGEO_BIN" tiles -o /dev/full-copy --format mbtiles 2> full.err; echo "full exit $?"
            [ -c /dev/null-copy ] && [ -c /dev/full-copy ] && echo "devices intact"
            mkfifo pipe
            cat pipe > from-pipe & reader=$!
            "$HUBGEO_BIN" tiles -o pipe --format mbtiles 2> pipe.err; echo "pipe exit $?"
            wait $reader
            [ -p pipe ] && echo "fifo intact"
            cmp -s from-pipe reference.mbtiles && echo "same bytes"
            "$HUBGEO_BIN" tiles -o t --max-zoom 1 2> short.err; echo "one-letter exit $?"
            "$HUBGEO_BIN" export geojson -o e 2>> short.err; echo "one-letter export exit $?"
            echo "temporaries [$(ls -A /dev "$TMPDIR" "$WORK" | grep '^\\.[^/]*\\.hubgeo-')]"
            """, home: home)
        let output = result.text + result.stderr + ((try? String(contentsOfFile: home.path("full.err"), encoding: .utf8)) ?? "")
        #expect(result.text.contains("null exit 0"), "\(output)")
        #expect(result.text.contains("full exit 1"), "\(output)")
        #expect(((try? String(contentsOfFile: home.path("full.err"), encoding: .utf8)) ?? "").contains("No space left on device"), "\(output)")
        #expect(result.text.contains("devices intact"), "\(output)")
        #expect(result.text.contains("pipe exit 0") && result.text.contains("fifo intact"), "\(output)")
        #expect(result.text.contains("same bytes"), "\(output)")
        #expect(result.text.contains("temporaries []"), "\(output)")
        // A one-letter relative name (Foundation's path functions trap on one).
        #expect(result.text.contains("one-letter exit 0") && result.text.contains("one-letter export exit 0"),
                "\(output)\((try? String(contentsOfFile: home.path("short.err"), encoding: .utf8)) ?? "")")
    }

    /// Round 5's item 4: a signal removes the temporary; one left by a second signal or SIGKILL is
    /// swept by the next run to the same name.
    @Test("interrupted MBTiles and folder runs leave no temporary once the next run to the same name is done")
    func interruptedRunsLeaveNoTemporary() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = try ExportMemoryTests.syntheticStore(count: 20_000, in: directory).path
        for format in ["mbtiles", "folder"] {
            for signals in [[SIGTERM], [SIGINT, SIGTERM], [SIGKILL]] {
                let home = try TestPaths.temporaryDirectory()
                let folder = home.path("out")
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let target = folder + "/k"
                var environment = CLIRunner(database: database, home: home.url.path).environment
                environment["HUBGEO_DB"] = database
                let arguments = ["tiles", "-o", target, "--format", format]
                let process = try OutputInterruptionTests.startAsFromATerminal(arguments, environment: environment, in: home)
                let seen = OutputInterruptionTests.stopWhenTemporaryAppears(process, in: folder)
                defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
                try #require(seen != nil, "\(format): no temporary appeared")
                for signal in signals { kill(process.processIdentifier, signal) }
                kill(process.processIdentifier, SIGCONT)
                #expect(ImportRobustnessTests.wait(process, timeout: 60), "still running after \(signals)")
                #expect(!(process.terminationReason == .exit && process.terminationStatus == 0), "\(format) \(signals): exit 0")
                #expect(!FileManager.default.fileExists(atPath: target), "\(format) \(signals): published")
                if signals == [SIGTERM] {
                    #expect(OutputInterruptionTests.temporaries(in: folder).isEmpty, "\(format) \(signals) left \(OutputInterruptionTests.temporaries(in: folder))")
                }
                // The next run to the same name removes whatever a killed writer left.
                let next = try CommandRunner.run(try CLIRunner.binary(), arguments + ["--max-zoom", "2"], environment: environment)
                #expect(next.status == 0, "\(next.stderr)")
                #expect(OutputInterruptionTests.temporaries(in: folder).isEmpty, "\(format) \(signals): \(OutputInterruptionTests.temporaries(in: folder))")
            }
        }
    }

    /// Round 5's "Also": a SIGTERM during the MBTiles archive's last steps (its index and VACUUM,
    /// after the last tile) publishes nothing. SQLite makes its temporary files for them in
    /// `SQLITE_TMPDIR`: the signal is sent when the first appears there.
    @Test("a SIGTERM while the MBTiles archive is finished publishes nothing")
    func aLateSignalPublishesNothing() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = try ExportMemoryTests.syntheticStore(count: 20_000, in: directory).path
        let home = try TestPaths.temporaryDirectory()
        let sqliteTemporary = home.path("sqlite-tmp")
        try FileManager.default.createDirectory(atPath: sqliteTemporary, withIntermediateDirectories: true)
        let target = home.path("late.mbtiles")
        try "the previous archive".write(toFile: target, atomically: false, encoding: .utf8)
        var environment = CLIRunner(database: database, home: home.url.path).environment
        environment["SQLITE_TMPDIR"] = sqliteTemporary
        let process = try OutputInterruptionTests.startAsFromATerminal(["tiles", "-o", target], environment: environment, in: home)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let seen = OutputInterruptionTests.stopWhenTemporaryAppears(process, in: sqliteTemporary, containing: "")
        try #require(seen != nil, "SQLite made no temporary file: \((try? String(contentsOfFile: home.path("run.err"), encoding: .utf8)) ?? "")")
        kill(process.processIdentifier, SIGTERM)
        kill(process.processIdentifier, SIGCONT)
        #expect(ImportRobustnessTests.wait(process, timeout: 60))
        let stderr = (try? String(contentsOfFile: home.path("run.err"), encoding: .utf8)) ?? ""
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationStatus): \(stderr)")
        #expect(!stderr.contains("Wrote"), "\(stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "the previous archive", "the archive was published")
        #expect(OutputInterruptionTests.temporaries(in: home.url.path).isEmpty, "\(OutputInterruptionTests.temporaries(in: home.url.path))")
    }

    /// Round 5's item 5: a directory at a file output is refused before any work.
    @Test("tiles -o onto a directory as an archive, or onto a file as a folder, fails at once")
    func wrongKindOfTargetIsRefusedAtOnce() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        for name in ["adir.mbtiles", "adir.pmtiles"] {
            try FileManager.default.createDirectory(atPath: home.path(name), withIntermediateDirectories: false)
            let refused = try cli.run(["tiles", "-o", home.path(name)])
            #expect(refused.status == 1 && refused.stderr.contains("it is a directory; give a file name"), "\(name): \(refused.stderr)")
            #expect(!refused.stderr.contains("Wrote"))
        }
        _ = try home.write("afile", "mine")
        let file = try cli.run(["tiles", "-o", home.path("afile"), "--format", "folder"])
        #expect(file.status == 1 && file.stderr.contains("exists and is not a folder"), "\(file.stderr)")
        #expect(try String(contentsOfFile: home.path("afile"), encoding: .utf8) == "mine")
        #expect(OutputInterruptionTests.temporaries(in: home.url.path).isEmpty, "\(OutputInterruptionTests.temporaries(in: home.url.path))")
    }

    /// Round 5's "Also": a tile folder holding a user's file deeper down is refused, the file kept.
    @Test("a tile folder with a user's file in a numbered subfolder is refused, and the file stays")
    func aUsersFileInsideATileFolderIsKept() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["tiles", "-o", home.path("tiles"), "--max-zoom", "2"]).status == 0)
        try FileManager.default.createDirectory(atPath: home.path("tiles/2024"), withIntermediateDirectories: false)
        _ = try home.write("tiles/2024/holiday.jpg", "a photo")
        let refused = try cli.run(["tiles", "-o", home.path("tiles"), "--max-zoom", "2"])
        #expect(refused.status == 1 && refused.stderr.contains("holds other files (2024/holiday.jpg)"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: home.path("tiles/2024/holiday.jpg"), encoding: .utf8) == "a photo")
        // A folder of hubgeo's alone is replaced, whole.
        try FileManager.default.removeItem(atPath: home.path("tiles/2024"))
        let replaced = try cli.run(["tiles", "-o", home.path("tiles"), "--max-zoom", "3"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.path("tiles/3")))
        #expect(OutputInterruptionTests.temporaries(in: home.url.path).isEmpty, "\(OutputInterruptionTests.temporaries(in: home.url.path))")
    }
}
