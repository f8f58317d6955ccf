import CPOSIX
import Foundation
import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `export -o` and `map -o` write under a temporary name beside the target: Ctrl-C (SIGINT) or
/// SIGTERM removes it and ends the process as the signal does; one left by a writer killed
/// outright (SIGKILL) is removed by the next write to the same target.
@Suite("Temporary files of export -o and map -o", .serialized)
struct OutputInterruptionTests {
    /// The names in `directory` that are temporary files of an output.
    static func temporaries(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".hubgeo-") }.sorted()
    }

    /// Waits (inotify) until a temporary output file (a name `containing` that) appears in
    /// `directory`, then stops `process` with SIGSTOP, so that the signal under test arrives while the
    /// file is there. Its name, or nil when none appeared within `timeout` seconds or the process
    /// ended first.
    static func stopWhenTemporaryAppears(_ process: Process, in directory: String, containing marker: String = ".hubgeo-",
                                         timeout: TimeInterval = 120) -> String? {
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watch >= 0 else { return nil }
        defer { close(watch) }
        guard inotify_add_watch(watch, directory, UInt32(IN_CREATE)) >= 0 else { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while Date() < deadline && process.isRunning {
            guard hubgeo_poll_readable(watch, 20) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            while true {
                let (next, name) = buffer.withUnsafeBufferPointer { bytes -> (Int, String) in
                    var name: UnsafePointer<CChar>?
                    let next = hubgeo_inotify_event(bytes.baseAddress, count, offset, &name)
                    return (next, name.map { String(cString: $0) } ?? "")
                }
                guard next > 0 else { break }
                if marker.isEmpty || name.contains(marker) {
                    kill(process.processIdentifier, SIGSTOP)
                    return name
                }
                offset = next
            }
        }
        return nil
    }

    /// Starts hubgeo with SIGINT and SIGTERM unblocked, as a shell in a terminal starts it (the
    /// test runner's children inherit them blocked, measured in /proc/PID/status: SigBlk).
    static func startAsFromATerminal(_ arguments: [String], environment: [String: String], in directory: TemporaryDirectory) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = ["-MPOSIX", "-e", "sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGINT, SIGTERM)) && exec @ARGV or exit 97",
                             try CLIRunner.binary().path] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: directory.path("run.err"), contents: nil)
        process.standardError = try FileHandle(forWritingTo: directory.url.appendingPathComponent("run.err"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func interruptMidWrite(_ arguments: [String], signal: Int32, database: String) throws {
        let home = try TestPaths.temporaryDirectory()
        let folder = home.path("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/result"
        try "the previous output\n".write(toFile: target, atomically: false, encoding: .utf8)
        var environment = CLIRunner(database: database, home: home.url.path).environment
        environment["HUBGEO_DB"] = database
        let process = try Self.startAsFromATerminal(arguments + ["-o", target], environment: environment, in: home)
        let seen = Self.stopWhenTemporaryAppears(process, in: folder)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(seen != nil, "no temporary file appeared: \((try? String(contentsOfFile: home.path("run.err"), encoding: .utf8)) ?? "")")
        #expect(Self.temporaries(in: folder) == [seen!])
        kill(process.processIdentifier, signal)
        kill(process.processIdentifier, SIGCONT)
        #expect(ImportRobustnessTests.wait(process, timeout: 30), "still running 30 s after the signal")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "\(arguments): ended by \(process.terminationReason == .uncaughtSignal ? "signal" : "exit") \(process.terminationStatus)")
        #expect(Self.temporaries(in: folder).isEmpty, "\(arguments) left \(Self.temporaries(in: folder))")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "the previous output\n", "the target was changed")
    }

    @Test("SIGINT or SIGTERM during export -o or map -o removes the temporary file and ends the process by the signal")
    func signalRemovesTheTemporaryFile() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = try ExportMemoryTests.syntheticStore(count: 100_000, in: directory).path
        try Self.interruptMidWrite(["export", "geojson"], signal: SIGINT, database: database)
        try Self.interruptMidWrite(["export", "kml", "--pretty"], signal: SIGTERM, database: database)
        try Self.interruptMidWrite(["map", "--max-organizations", "100000"], signal: SIGINT, database: database)
        try Self.interruptMidWrite(["map", "--max-organizations", "100000"], signal: SIGTERM, database: database)
    }

    @Test("the next write to a target removes the temporary files that killed writers left, and only those")
    func abandonedTemporaryFilesAreSwept() throws {
        guard getuid() == 0 else {
            Issue.record("needs root to make a file owned by another user")
            return
        }
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        let folder = home.path("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The PID of a process that has ended.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier, alive = getpid()
        let abandoned = [".map.html.\(gone).hubgeo-Ab12Cd", ".map.html.hubgeo-Xy34Zw"]
        let kept = [
            ".map.html.\(alive).hubgeo-Ab12Cd",  // its writer runs
            ".map.html.hubgeo-Fresh1",  // no PID, and modified just now
            ".map.html.\(gone).hubgeo-Ab12Cde", ".map.html.\(gone).hubgeo-Ab12C", ".map.html.+\(gone).hubgeo-Ab12Cd",
            ".map.html.\(gone).staging", ".other.html.\(gone).hubgeo-Ab12Cd", "map.html.\(gone).hubgeo-Ab12Cd",
            ".map.html.\(gone).hubgeo-Other1",  // owned by another user
        ]
        for name in abandoned + kept { try "partial".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)],
                                              ofItemAtPath: folder + "/.map.html.hubgeo-Xy34Zw")
        #expect(chown(folder + "/.map.html.\(gone).hubgeo-Other1", 65534, 65534) == 0)
        #expect(symlink("elsewhere", folder + "/.map.html.\(gone).hubgeo-Link12") == 0)
        let result = try cli.run(["map", "-o", folder + "/map.html"])
        #expect(result.status == 0, "\(result.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        for name in abandoned { #expect(!left.contains(name), "\(name) was kept") }
        for name in kept + [".map.html.\(gone).hubgeo-Link12", "map.html"] { #expect(left.contains(name), "\(name) was removed") }
    }
}
