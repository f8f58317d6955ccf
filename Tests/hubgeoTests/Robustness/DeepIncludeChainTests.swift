import Foundation
import HubGeoTestSupport
import Testing

/// A Level 1 tree may be as deep as its author (or an attacker) makes it: a chain of includes
/// imports and validates like a shallow tree, from a folder and from a server, within the child
/// process's time limit. hubgeo runs here with a 2 MiB stack (a quarter of the usual 8 MiB), so
/// that a walk whose stack grows with the depth would crash well before the 4,000 levels of the
/// chain (a recursive walk crashed at 10,000-12,000 levels with 8 MiB), while the test stays short.
@Suite("Deep include chains: no crash, every file read")
struct DeepIncludeChainTests {
    static let depth = 4_000
    /// The stack of the hubgeo process, in KiB (`ulimit -s`): its main thread's and every thread's it starts.
    static let stackKiB = 2_048
    /// Generous for a debug build on a busy machine; the walk takes a few seconds from a folder.
    static let timeLimit: TimeInterval = 300

    /// `root_.level1.json` includes `c1.level1.json`, which includes `c2.level1.json`, ... each
    /// declaring one museum (no Level 2 file to look for). The includes are URLs on `base`: a
    /// folder resolves them by their last path component, a server by the URL.
    static func writeChain(into folder: URL, base: URL) throws {
        func name(_ level: Int) -> String { level == 0 ? "root_.level1.json" : "c\(level).level1.json" }
        for level in 0..<depth {
            let includes = level + 1 < depth ? "\"\(base.appendingPathComponent(name(level + 1)).absoluteString)\"" : ""
            let museum = """
                {"idPlus": {"town": "Town \(level)", "fullName": "Museum \(level)", "nickName": "m\(level)"},
                 "coordinates": {"latitude": \(Double(level % 1_700) / 10 - 85), "longitude": \(Double(level % 3_500) / 10 - 175)}}
                """
            try Data(#"{"level1Header": {"level1URLIncludes": [\#(includes)]}, "clubs": [], "museums": [\#(museum)]}"#.utf8)
                .write(to: folder.appendingPathComponent(name(level)))
        }
    }

    /// Imports and validates `root` with its own database: both read every level and succeed.
    static func importAndValidate(_ root: String, in directory: TemporaryDirectory, database: String) throws {
        let cli = CLIRunner(database: directory.path(database), home: directory.url.path)
        func run(_ arguments: [String]) throws -> CommandRunner.Result {
            try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                  ["-c", "ulimit -s \(stackKiB) && exec \"$0\" \"$@\"", try CLIRunner.binary().path] + arguments,
                                  environment: cli.environment, timeout: timeLimit)
        }
        let imported = try run(["import", root])
        #expect(imported.status == 0, "import \(root): \(imported.stderr.suffix(500))")
        #expect(imported.text.contains("0 clubs, \(depth) museums from \(depth) Level 1 files"), "\(imported.text)")
        #expect(imported.text.contains("\(depth) added"), "\(imported.text)")

        let validated = try run(["validate", root])
        #expect(validated.status == 0, "validate \(root): \(validated.stderr.suffix(500)) \(validated.text.suffix(500))")
        // Each include is an http URL of the loopback server: app versions from 3.1.0 on would skip it.
        #expect(validated.text.hasSuffix("\(depth) files, \(depth) organizations: 0 errors, \(depth - 1) warnings\n"),
                "\(validated.text.suffix(500))")
        #expect(validated.text.split(separator: "\n").dropLast().allSatisfy { $0.hasSuffix("[include-not-https]") })
    }

    @Test("a chain of 4,000 includes imports and validates on a 2 MiB stack, from a folder and from a server")
    func deepChain() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let server = try LoopbackServer(root: data, lifetime: 3 * Self.timeLimit)
        defer { server.stop() }
        try Self.writeChain(into: data, base: server.baseURL)
        try Self.importAndValidate(data.path, in: directory, database: "folder.sqlite")
        try Self.importAndValidate(server.url("/root_.level1.json").absoluteString, in: directory, database: "server.sqlite")
    }
}
