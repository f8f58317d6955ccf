import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The import under fire: killed with SIGKILL at random moments, and read from while it writes.
@Suite("Import robustness: kill -9 and concurrent readers", .serialized)
struct ImportRobustnessTests {
    static let organizationCount = 1_000

    /// A Level 1 file with `organizationCount` clubs named "Club <tag> <i>" at seeded random places.
    static func writeDataSet(_ tag: String, seed: UInt64, in directory: TemporaryDirectory) throws -> (path: String, names: Set<String>) {
        var random = SplitMix64(seed: seed)
        var entries: [Level1Builder.Entry] = []
        for index in 0..<organizationCount {
            entries.append(.init(town: "Town \(index % 40)", fullName: "Club \(tag) \(index)", nickName: "club\(tag)\(index)",
                                 latitude: Double.random(in: -80...80, using: &random),
                                 longitude: Double.random(in: -179...179, using: &random),
                                 optional: #"{"website": "https://example.org/\#(index)", "remark": [{"language": "EN", "value": "Remark \#(tag) \#(index)"}]}"#))
        }
        let file = try directory.write("\(tag).level1.json", Level1Builder.level1(clubs: entries))
        return (file.path, Set(entries.map(\.fullName)))
    }

    /// Starts `hubgeo` with `arguments`; output goes to files in `directory`.
    static func start(_ arguments: [String], environment: [String: String], in directory: TemporaryDirectory, name: String) throws -> Process {
        let process = Process()
        process.executableURL = try CLIRunner.binary()
        process.arguments = arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: directory.path("\(name).out"), contents: nil)
        _ = FileManager.default.createFile(atPath: directory.path("\(name).err"), contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: directory.url.appendingPathComponent("\(name).out"))
        process.standardError = try FileHandle(forWritingTo: directory.url.appendingPathComponent("\(name).err"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process` at most `timeout` seconds, then kills it with SIGKILL; true when it ended by itself.
    @discardableResult
    static func wait(_ process: Process, timeout: TimeInterval) -> Bool {
        guard !Waiting.exit(of: process, timeout: timeout) else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// Opens the database as hubgeo does, checks its integrity and returns the organization names,
    /// after checking that remarks and the spatial index hold exactly one row per organization.
    static func inspect(_ path: String) throws -> Set<String> {
        let store = try OrganizationStore(path: path)
        return try store.database.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let names = try String.fetchAll(db, sql: "SELECT full_name FROM organization")
            let remarks = try Int.fetchOne(db, sql: "SELECT count(*) FROM organization_remark") ?? -1
            let indexed = try Int.fetchOne(db, sql: "SELECT count(*) FROM idx_organization_geom") ?? -1
            #expect(remarks == names.count && indexed == names.count, "remarks \(remarks), index \(indexed), organizations \(names.count)")
            return Set(names)
        }
    }

    @Test func killedImportLeavesTheOldOrTheNewDataComplete() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        let a = try Self.writeDataSet("A", seed: 1, in: directory)
        let b = try Self.writeDataSet("B", seed: 2, in: directory)

        let started = Date()
        #expect(try cli.run(["import", a.path], timeout: 120).status == 0)
        let importSeconds = Date().timeIntervalSince(started)
        var current = try Self.inspect(database)
        #expect(current == a.names)

        var random = SplitMix64(seed: 0x6B696C6C)
        var killedMidway = 0, completed = 0
        for round in 0..<6 {
            let target = current == a.names ? b : a
            let process = try Self.start(["import", target.path], environment: cli.environment, in: directory, name: "import\(round)")
            let delay = Double.random(in: 0...(importSeconds * 1.1), using: &random)
            // A real sleep, and the subject of the test: a kill at a random moment of an import.
            usleep(useconds_t(delay * 1_000_000))
            let finishedAlone = !process.isRunning
            kill(process.processIdentifier, SIGKILL)
            Self.wait(process, timeout: 10)
            let found = try Self.inspect(database)
            #expect(found == a.names || found == b.names, "round \(round): \(found.count) organizations, a mix or a part")
            if found == current { killedMidway += 1 } else { completed += 1 }
            if finishedAlone { #expect(found == target.names) }
            current = found
        }
        #expect(killedMidway >= 1, "at least one kill landed during an import (import takes \(importSeconds) s)")
        print("kill -9: \(killedMidway) imports killed midway (old data kept), \(completed) completed first; import \(String(format: "%.2f", importSeconds)) s")
    }

    @Test func readersDuringAnImportNeverSeeDatabaseIsLocked() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        let cli = CLIRunner(database: database, home: directory.url.path)
        let a = try Self.writeDataSet("A", seed: 3, in: directory)
        let b = try Self.writeDataSet("B", seed: 4, in: directory)
        #expect(try cli.run(["import", a.path], timeout: 120).status == 0)

        let importer = try Self.start(["import", b.path], environment: cli.environment, in: directory, name: "import")
        let importStart = Date()
        var runs: [(status: Int32, stderr: String, seconds: Double, duringImport: Bool)] = []
        var inProcessReads = 0
        let reader = try OrganizationStore(path: database)
        var round = 0
        while importer.isRunning && Date().timeIntervalSince(importStart) < 60 {
            let begin = Date()
            // Started while the import runs: it overlaps the import, however soon either ends
            // (on a loaded machine the first near can outlast the whole import).
            let startedDuringImport = importer.isRunning
            let near = try Self.start(["near", "0", "0", "--nearest", "3"], environment: cli.environment, in: directory, name: "near\(round)")
            // In-process reads through another store on the same file while the child runs.
            while near.isRunning && Date().timeIntervalSince(begin) < 40 {
                let count = try reader.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0 }
                #expect(count == Self.organizationCount)
                inProcessReads += 1
            }
            Self.wait(near, timeout: 40)
            let stderr = (try? String(contentsOfFile: directory.path("near\(round).err"), encoding: .utf8)) ?? ""
            runs.append((near.terminationStatus, stderr, Date().timeIntervalSince(begin), startedDuringImport))
            round += 1
        }
        #expect(Self.wait(importer, timeout: 60))
        #expect(importer.terminationStatus == 0)
        #expect(!runs.isEmpty)
        for run in runs {
            #expect(run.status == 0, "near failed: \(run.stderr)")
            #expect(!run.stderr.contains("locked"), "\(run.stderr)")
        }
        #expect(runs.contains { $0.duringImport }, "some reads overlapped the import")
        #expect(try Self.inspect(database) == b.names)
        let slowest = runs.map(\.seconds).max() ?? 0
        print("readers: \(runs.count) near runs (\(runs.filter(\.duringImport).count) during the import, slowest \(String(format: "%.2f", slowest)) s), \(inProcessReads) in-process reads, no failure")
    }
}
