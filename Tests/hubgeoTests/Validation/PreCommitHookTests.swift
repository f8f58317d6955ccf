import Foundation
import HubGeoTestSupport
import Testing

/// .pre-commit-hooks.yaml, with the real pre-commit (`make python-tools`): `pre-commit try-repo` of
/// this repository (its HEAD, with the tracked files' uncommitted changes, as try-repo takes a local
/// repository) in a throwaway git repository holding a good and a bad Level 1 file. The system
/// flavour runs the hubgeo just built, on PATH. The swift flavour would build the whole package in
/// pre-commit's cache (many minutes): its definition is checked instead, by pre-commit's own
/// manifest check and against the system flavour.
@Suite("pre-commit hooks", .serialized)
struct PreCommitHookTests {
    static let manifest = TestPaths.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml")

    static func preCommit(_ arguments: [String], in folder: URL, home: URL) throws -> CommandRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = nil
        environment["HOME"] = home.path
        environment["PRE_COMMIT_HOME"] = home.appendingPathComponent("pre-commit-cache").path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["PATH"] = try CommandRunner.hubgeo.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, try CITestSupport.pythonTool("pre-commit").path] + arguments,
                                     environment: environment, timeout: 300)
    }

    @Test("try-repo hubgeo-validate-system: the good file passes, the bad one fails naming its file, line and rule")
    func systemHook() throws {
        let directory = try TestPaths.temporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        _ = try ActionTests.git(["init", "--quiet"], in: data)
        try Data(Level1Builder.level1(clubs: [.init(town: "Eindhoven", fullName: "Fotoclub Goed", nickName: "fcGoed", latitude: 51.44, longitude: 5.47)]).utf8)
            .write(to: data.appendingPathComponent("good.level1.json"))
        try ActionTests.addBadFile(data)
        try FileManager.default.moveItem(at: data.appendingPathComponent("clubsNL99.level1.json"), to: data.appendingPathComponent("bad.level1.json"))
        try Data("{\"not\": \"data\"}\n".utf8).write(to: data.appendingPathComponent("other.json"))
        _ = try ActionTests.git(["add", "-A"], in: data)

        let root = TestPaths.packageRoot.path
        let good = try Self.preCommit(["try-repo", root, "hubgeo-validate-system", "--files", "good.level1.json", "other.json"], in: data, home: directory.url)
        #expect(good.status == 0, "\(good.text)\(good.stderr)")
        #expect(good.text.contains("hubgeo validate (hubgeo on PATH)") && good.text.contains("Passed"), "\(good.text)")

        let bad = try Self.preCommit(["try-repo", root, "hubgeo-validate-system", "--files", "good.level1.json", "bad.level1.json"], in: data, home: directory.url)
        #expect(bad.status == 1, "\(bad.text)\(bad.stderr)")
        #expect(bad.text.contains("Failed"), "\(bad.text)")
        #expect(bad.text.contains("/bad.level1.json:") && bad.text.contains("clubs[0].coordinates.latitude: error: expected a number, found a string")
                    && bad.text.contains("[wrong-type]"), "\(bad.text)")
        #expect(!bad.text.contains("good.level1.json:"), "the good file has no finding")

        let all = try Self.preCommit(["try-repo", root, "hubgeo-validate-system", "--all-files"], in: data, home: directory.url)
        #expect(all.status == 1 && all.text.contains("/bad.level1.json:"), "\(all.text)")
    }

    @Test("both flavours pass pre-commit's manifest check and differ only in how hubgeo is had (swift: built from this package)")
    func flavours() throws {
        let check = try Self.preCommit(["validate-manifest", Self.manifest.path], in: TestPaths.packageRoot, home: try TestPaths.temporaryDirectory().url)
        #expect(check.status == 0, "\(check.text)\(check.stderr)")
        let hooks = try String(contentsOf: Self.manifest, encoding: .utf8).components(separatedBy: "\n- ").dropFirst()
            .map { block in
                Dictionary(block.split(separator: "\n").compactMap { line -> (String, String)? in
                    let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
                }, uniquingKeysWith: { $1 })
            }
        #expect(hooks.map { $0["id"] } == ["hubgeo-validate", "hubgeo-validate-system"])
        #expect(hooks.map { $0["language"] } == ["swift", "system"])
        #expect(hooks.allSatisfy { $0["entry"] == "hubgeo validate" && $0["files"] == #"\.level[012]\.json$"# && $0["types"] == "[json]" })
        // pre-commit's swift flavour runs `swift build -c release` here and puts .build/release on PATH: the package must make `hubgeo`.
        let package = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains(#".executable(name: "hubgeo""#) || package.contains(#".executableTarget(\#n            name: "hubgeo""#))
    }
}
