import Foundation
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Results that cannot be written are a failure: every command that writes results, run with
/// its standard output on /dev/full (every write fails with ENOSPC), exits 1 and says why.
@Suite("Write errors on standard output")
struct OutputErrorTests {
    struct Run {
        var status: Int32
        var stderr: String
    }

    /// Runs the built binary with stdout on `output` and stderr captured, killed after 60 s.
    static func run(_ arguments: [String], environment: [String: String], output: String) throws -> Run {
        let directory = try TemporaryDirectory()
        let errURL = directory.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try #require(FileHandle(forWritingAtPath: output))
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try CLIRunner.binary()
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if !Waiting.exit(of: process, timeout: 60) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("hubgeo \(arguments.joined(separator: " ")) did not finish in 60 s")
        }
        try out.close()
        try err.close()
        return Run(status: process.terminationStatus, stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    static let good = Level1Builder.level1(clubs: [
        .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46),
    ])

    @Test func everyResultWritingCommandFailsOnAFullDisk() throws {
        let home = try TestPaths.temporaryDirectory()
        let level1 = try home.write("root.level1.json", Self.good)
        let standIn = try NominatimStandIn.start()
        var environment = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path).environment
        environment["HUBGEO_CONFIG"] = "/nonexistent"
        environment["HUBGEO_NOMINATIM_URL"] = standIn.baseURL.absoluteString
        environment["HUBGEO_REQUEST_INTERVAL"] = "0"
        // The embedded data, imported once, so that each query below has results to write.
        #expect(try Self.run(["stats"], environment: environment, output: "/dev/null").status == 0)

        let commands: [[String]] = [
            ["near", "51.4", "5.4"],
            ["near", "51.4", "5.4", "--km", "20", "--format", "json"],
            ["near", "51.4", "5.4", "--format", "geojson"],
            ["bbox", "51.3", "5.3", "51.5", "5.6"],
            ["search", "Foto"],
            ["search", "Foto", "--format", "json"],
            ["show", "fgWaalre"],
            ["show", "fgWaalre", "--format", "json"],
            ["stats"],
            ["stats", "--format", "json"],
            ["validate", level1.path],
            ["validate", level1.path, "--format", "json"],
            ["geocode", "51.42398", "5.4501"],
            ["geocode", "51.42398", "5.4501", "--raw"],
            ["export", "geojson"],
            ["export", "kml"],
            ["import", level1.path, "--db", home.path("other.sqlite")],
        ]
        for arguments in commands {
            // Each succeeds when its output can be written...
            let fine = try Self.run(arguments, environment: environment, output: "/dev/null")
            #expect(fine.status == 0, "\(arguments): \(fine.stderr)")
            // ...and fails, saying why, when it cannot.
            let full = try Self.run(arguments, environment: environment, output: "/dev/full")
            #expect(full.status == 1, "hubgeo \(arguments.joined(separator: " ")) > /dev/full exited \(full.status)")
            #expect(full.stderr.contains("No space left on device"), "hubgeo \(arguments.joined(separator: " ")): \(full.stderr)")
        }
    }
}
