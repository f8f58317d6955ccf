import Foundation
import HubGeoTestSupport
import Testing
@testable import HubGeo

/// A Level 1 tree may be as deep as its author (or an attacker) makes it: a chain of 20,000
/// includes imports and validates like a shallow tree, from a folder and from a server, within
/// the child process's time limit.
@Suite("Deep include chains: no crash, every file read", .serialized)
struct DeepIncludeChainTests {
    static let depth = 20_000
    /// Generous for a debug build on a busy machine; the walk takes a few seconds from a folder.
    static let timeLimit: TimeInterval = 300

    /// `root_.level1.json` includes `c1.level1.json`, which includes `c2.level1.json`, ... each
    /// declaring one museum (no Level 2 file to look for). The includes are URLs on `base`: a
    /// folder resolves them by their last path component, a server by the URL.
    static func writeChain(into folder: URL, base: URL) throws {
        func name(_ level: Int) -> String { level == 0 ? "root_.level1.json" : "c\(level).level1.json" }
        for level in 0..<depth {
            let museum = Level1Builder.Entry(town: "Town \(level)", fullName: "Museum \(level)", nickName: "m\(level)",
                                             latitude: Double(level % 1_700) / 10 - 85, longitude: Double(level % 3_500) / 10 - 175)
            let includes = level + 1 < depth ? [base.appendingPathComponent(name(level + 1)).absoluteString] : []
            try Data(Level1Builder.level1(museums: [museum], includes: includes).utf8)
                .write(to: folder.appendingPathComponent(name(level)))
        }
    }

    /// Imports and validates `root`: both read every level and succeed.
    static func importAndValidate(_ root: String, in directory: TemporaryDirectory) throws {
        let cli = CLIRunner(database: directory.path("hub.sqlite"), home: directory.url.path)
        let imported = try cli.run(["import", root], timeout: timeLimit)
        #expect(imported.status == 0, "import: \(imported.stderr.suffix(500))")
        #expect(imported.stdout.contains("0 clubs, \(depth) museums from \(depth) Level 1 files"), "\(imported.stdout)")
        #expect(imported.stdout.contains("\(depth) added"), "\(imported.stdout)")

        let validated = try cli.run(["validate", root], timeout: timeLimit)
        #expect(validated.status == 0, "validate: \(validated.stderr.suffix(500)) \(validated.stdout.suffix(500))")
        #expect(validated.stdout.hasSuffix("\(depth) files, \(depth) organizations: 0 errors, 0 warnings\n"),
                "\(validated.stdout.suffix(500))")
    }

    @Test("a chain of 20,000 includes in a folder imports and validates")
    func deepChainInAFolder() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Self.writeChain(into: data, base: URL(string: "https://example.org/JSON")!)
        try Self.importAndValidate(data.path, in: directory)
    }

    @Test("a chain of 20,000 includes on a server imports and validates")
    func deepChainOnAServer() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let server = try LoopbackServer(root: data, lifetime: 2 * Self.timeLimit + 60)
        defer { server.stop() }
        try Self.writeChain(into: data, base: server.baseURL)
        try Self.importAndValidate(server.url("/root_.level1.json").absoluteString, in: directory)
    }
}
