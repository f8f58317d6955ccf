import CPOSIX
import Foundation
import HubGeoTestSupport
import Testing

/// action.yml, the composite GitHub Action, run step by step as the runner runs it
/// (Tests/HubGeoTestSupport/action_runner.py: its `run` steps in bash with the GITHUB_* files and
/// variables, expressions substituted, workflow commands and the problem matcher read from the log)
/// against a release served from a loopback HTTP server: a tarball in `make dist`'s layout holding
/// the built hubgeo, and its checksum file in sha256sum's format.
@Suite("The GitHub Action", .serialized)
struct ActionTests {
    static let action = TestPaths.packageRoot.appendingPathComponent("action.yml")
    static let version = "0.1.0"

    /// The release folder, the workspace (a shallow clone of a pull request whose base it lacks),
    /// RUNNER_TEMP and the tool cache, in one temporary folder.
    struct Setup {
        let directory: TemporaryDirectory
        let release: URL
        let workspace: URL
        let base: String
        var temp: URL { directory.url.appendingPathComponent("runner-temp") }
        var toolCache: URL { directory.url.appendingPathComponent("tool-cache") }
        var tarballName: String { "hubgeo-\(ActionTests.version)-linux-\(ActionTests.architecture).tar.gz" }
    }

    static var architecture: String {
        var name = [CChar](repeating: 0, count: 256)
        guard hubgeo_machine(&name, name.count) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func git(_ arguments: [String], in folder: URL) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/git"),
                                           ["-c", "user.name=hubgeo tests", "-c", "user.email=tests@hubgeo.invalid", "-C", folder.path] + arguments,
                                           environment: environment, timeout: 60)
        guard result.status == 0 else { throw CommandRunner.Failure(description: "git \(arguments): \(result.stderr)") }
        return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Packs `hubgeo` as `make dist` lays it out (NAME/bin/hubgeo) into `folder/NAME.tar.gz`, and
    /// writes NAME.tar.gz.sha256 beside it with sha256sum (unless `checksumOf` names another tarball
    /// whose checksum file to publish).
    static func pack(_ hubgeo: URL, as name: String, into folder: URL, scratch: URL) throws {
        let stage = scratch.appendingPathComponent("stage-\(UUID().uuidString)")
        let bin = stage.appendingPathComponent("\(name)/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: hubgeo, to: bin.appendingPathComponent("hubgeo"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tar = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "tar -C \"$1\" -cf - \"$2\" | gzip -1 > \"$3/$2.tar.gz\" && cd \"$3\" && sha256sum \"$2.tar.gz\" > \"$2.tar.gz.sha256\"",
                                         "sh", stage.path, name, folder.path], timeout: 120)
        guard tar.status == 0 else { throw CommandRunner.Failure(description: "tar: \(tar.stderr)") }
        try FileManager.default.removeItem(at: stage)
    }

    /// A pull request on a copy of the real data: `change` edits the head's JSON/ (nil: none).
    static func setup(change: ((URL) throws -> Void)?) throws -> Setup {
        let directory = try TestPaths.temporaryDirectory()
        let release = directory.url.appendingPathComponent("release")
        let name = "hubgeo-\(version)-linux-\(architecture)"
        try pack(try CommandRunner.hubgeo, as: name, into: release, scratch: directory.url)

        let origin = directory.url.appendingPathComponent("origin.git")
        let seed = directory.url.appendingPathComponent("seed")
        try FileManager.default.createDirectory(at: origin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
        _ = try git(["init", "--quiet", "--bare"], in: origin)
        _ = try git(["init", "--quiet", "-b", "main"], in: seed)
        try CITestSupport.copyRealData(into: seed)
        _ = try git(["add", "JSON"], in: seed)
        _ = try git(["commit", "--quiet", "-m", "base"], in: seed)
        let base = try git(["rev-parse", "HEAD"], in: seed)
        _ = try git(["checkout", "--quiet", "-b", "pr"], in: seed)
        try change?(seed.appendingPathComponent("JSON"))
        try Data("A pull request\n".utf8).write(to: seed.appendingPathComponent("README.md"))
        _ = try git(["add", "-A"], in: seed)
        _ = try git(["commit", "--quiet", "-m", "head"], in: seed)
        _ = try git(["push", "--quiet", origin.path, "main", "pr"], in: seed)
        // As actions/checkout leaves a pull request: one commit deep, the base not fetched.
        _ = try git(["clone", "--quiet", "--depth=1", "--branch", "pr", "file://" + origin.path, "workspace"], in: directory.url)
        let setup = Setup(directory: directory, release: release, workspace: directory.url.appendingPathComponent("workspace"), base: base)
        try FileManager.default.createDirectory(at: setup.temp, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: setup.toolCache, withIntermediateDirectories: true)
        return setup
    }

    struct Run: Decodable {
        struct Step: Decodable {
            var name: String
            var id: String?
            var skipped: Bool
            var status: Int?
            var log: [String]
            var outputs: [String: String]
        }
        struct Annotation: Decodable {
            var source: String
            var severity: String?
            var file: String?
            var line: String?
            var column: String?
            var message: String?
            var code: String?
        }
        var status: Int
        var steps: [Step]
        var annotations: [Annotation]
        var commands: [String]

        func step(_ name: String) -> Step? { steps.first { $0.name.hasPrefix(name) } }
        var matched: [Annotation] { annotations.filter { $0.source == "matcher" } }
    }

    /// Runs the action's steps as the runner would, with the release from `server` and `inputs`.
    static func run(_ setup: Setup, server: LoopbackServer, inputs: [String: String] = [:], pullRequest: Bool = true) throws -> Run {
        var arguments = [TestPaths.supportDirectory.appendingPathComponent("action_runner.py").path, action.path,
                         "--workspace", setup.workspace.path, "--temp", setup.temp.path, "--tool-cache", setup.toolCache.path,
                         "--input", "release-url=\(server.baseURL.absoluteString)/"]
        for (name, value) in inputs.sorted(by: { $0.key < $1.key }) { arguments += ["--input", "\(name)=\(value)"] }
        if pullRequest {
            arguments += ["--github", "event_name=pull_request", "--github", "event.pull_request.base.sha=\(setup.base)"]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["HUBGEO_DB"] = setup.directory.path("hub.sqlite")
        let result = try CommandRunner.run(try CITestSupport.pythonTool("python3"), arguments, environment: environment, timeout: 300)
        guard result.status == 0 else { throw CommandRunner.Failure(description: "action_runner.py: \(result.stderr)") }
        return try JSONDecoder().decode(Run.self, from: result.stdout)
    }

    /// A new Level 1 file with a quoted latitude: `wrong-type`, an error.
    static func addBadFile(_ json: URL) throws {
        let bad = Level1Builder.level1(clubs: [.init(town: "Eindhoven", fullName: "Fotoclub Nieuw", nickName: "fcNieuw", latitude: 51.44,
                                                     longitude: 5.47)])
            .replacingOccurrences(of: "\"latitude\": 51.44", with: "\"latitude\": \"51.44\"")
        try Data(bad.utf8).write(to: json.appendingPathComponent("clubsNL99.level1.json"))
    }

    @Test("a pull request that leaves the real data's problems as they were passes; the release's checksum is checked and nothing else runs")
    func unchangedPullRequestPasses() throws {
        let setup = try Self.setup(change: nil)
        let server = try LoopbackServer(root: setup.release, lifetime: 300)
        defer { server.stop() }
        let run = try Self.run(setup, server: server)
        #expect(run.status == 0, "\(run.steps.map { ($0.name, $0.status ?? -1, $0.log.suffix(5)) })")
        #expect(run.step("Restore the hubgeo release")?.skipped == true, "no cache service here: a miss")
        let install = try #require(run.step("Install hubgeo"))
        #expect(install.log.last?.hasPrefix("hubgeo \(Self.version) installed from \(server.baseURL.absoluteString)/\(setup.tarballName) (SHA-256 ") == true,
                "\(install.log)")
        #expect(try server.requests().map(\.path).sorted() == ["/\(setup.tarballName)", "/\(setup.tarballName).sha256"])
        let validate = try #require(run.step("hubgeo validate"))
        #expect(validate.log.contains { $0.hasPrefix("against the baseline \(setup.temp.path)/hubgeo-baseline: 3 errors and 104 warnings left as they were") },
                "\(validate.log)")
        #expect(run.matched.isEmpty && run.annotations.isEmpty, "\(run.annotations)")
        // The workflow commands of the whole run: the matcher registered and removed, nothing else.
        #expect(run.commands == ["::add-matcher::\(TestPaths.packageRoot.path)/.github/hubgeo-matcher.json", "::remove-matcher owner=hubgeo::"])
    }

    @Test("a pull request that adds a bad file fails, and the log and the matcher's annotation name its file, line and column")
    func newBadFileFails() throws {
        // Not included by the tree: validate checks such a file as a root of its own.
        let setup = try Self.setup(change: Self.addBadFile)
        let server = try LoopbackServer(root: setup.release, lifetime: 300)
        defer { server.stop() }
        let run = try Self.run(setup, server: server)
        #expect(run.status == 1)
        let validate = try #require(run.step("hubgeo validate"))
        #expect(validate.status == 1)
        let line = try #require(validate.log.first { $0.contains("clubsNL99") && $0.hasSuffix("[wrong-type]") }, "\(validate.log)")
        #expect(line.hasPrefix("JSON/clubsNL99.level1.json:") && line.contains(": error: clubs[0].coordinates.latitude: expected a number")
                    && line.hasSuffix("[wrong-type]"), "\(line)")
        #expect(run.matched.map(\.file) == ["JSON/clubsNL99.level1.json", "JSON/clubsNL99.level1.json"], "only the new file's problems")
        let annotation = try #require(run.matched.first { $0.code == "wrong-type" }, "\(run.annotations)")
        #expect(run.matched.count == validate.log.count { $0.contains(": error: ") || $0.contains(": warning: ") })
        #expect(annotation.file == "JSON/clubsNL99.level1.json" && annotation.severity == "error" && annotation.code == "wrong-type")
        #expect(line.hasPrefix("JSON/clubsNL99.level1.json:\(annotation.line ?? "?"):\(annotation.column ?? "?"): "), "\(line) \(annotation)")
        #expect(annotation.message?.hasPrefix("clubs[0].coordinates.latitude: expected a number, found a string") == true)
        #expect(validate.log.contains { $0.contains("3 errors and 104 warnings left as they were") })
    }

    @Test("without a baseline every problem of the real data is a line of the log and an annotation of the matcher")
    func everyProblemAnnotated() throws {
        let setup = try Self.setup(change: nil)
        let server = try LoopbackServer(root: setup.release, lifetime: 300)
        defer { server.stop() }
        let run = try Self.run(setup, server: server, inputs: ["baseline": "none"])
        #expect(run.status == 1)
        let validate = try #require(run.step("hubgeo validate"))
        #expect(validate.log.suffix(2) == ["33 files, 265 organizations: 3 errors, 104 warnings", "::remove-matcher owner=hubgeo::"], "\(validate.log.suffix(2))")
        #expect(run.matched.count == 107, "GitHub's cap of 10 per step does not hide the rest of the log")
        #expect(run.matched.count { $0.severity == "error" && $0.code == "orphan-level2" } == 3)
        #expect(run.matched.allSatisfy { $0.file?.hasPrefix("JSON/") == true && $0.line != nil && $0.column != nil }, "\(run.matched.prefix(3))")
        // On a push (no pull request), baseline auto reports every problem too.
        let push = try Self.run(setup, server: server, pullRequest: false)
        #expect(push.status == 1 && push.matched.count == 107)
        #expect(push.step("Unpack the pull request's base")?.log == ["Not a pull request: every problem is reported."])
    }

    @Test("a tarball whose SHA-256 is not the published one fails the install before anything in it is unpacked or run")
    func checksumMismatchRunsNothing() throws {
        let setup = try Self.setup(change: nil)
        // A valid tarball of the same name whose hubgeo leaves a mark when it runs, served with the checksum file of the real one.
        let marker = setup.directory.url.appendingPathComponent("ran")
        let script = try setup.directory.write("evil-hubgeo", "#!/bin/sh\n: > '\(marker.path)'\necho \(Self.version)\n")
        chmod(script.path, 0o755)
        let evil = setup.directory.url.appendingPathComponent("evil")
        try Self.pack(script, as: setup.tarballName.replacingOccurrences(of: ".tar.gz", with: ""), into: evil, scratch: setup.directory.url)
        let realChecksum = setup.release.appendingPathComponent(setup.tarballName + ".sha256")
        let evilChecksum = evil.appendingPathComponent(setup.tarballName + ".sha256")
        let published = setup.directory.url.appendingPathComponent("published")
        try FileManager.default.createDirectory(at: published, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: evil.appendingPathComponent(setup.tarballName), to: published.appendingPathComponent(setup.tarballName))
        try FileManager.default.copyItem(at: realChecksum, to: published.appendingPathComponent(setup.tarballName + ".sha256"))
        let expected = try String(contentsOf: realChecksum, encoding: .utf8).prefix(64)
        let server = try LoopbackServer(root: published, lifetime: 300)
        defer { server.stop() }

        let run = try Self.run(setup, server: server)
        #expect(run.status == 1)
        let install = try #require(run.step("Install hubgeo"))
        #expect(install.status == 1)
        #expect(run.annotations.count == 1 && run.annotations.first?.message?.hasPrefix("\(setup.tarballName) has SHA-256 ") == true
                    && run.annotations.first?.message?.hasSuffix(", not \(expected) as its checksum file says: not installed") == true,
                "\(run.annotations)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "nothing from the tarball ran")
        #expect(!FileManager.default.fileExists(atPath: setup.temp.appendingPathComponent("hubgeo-\(Self.version)").path), "nothing was unpacked")
        #expect(!FileManager.default.fileExists(atPath: setup.toolCache.appendingPathComponent("hubgeo/\(Self.version)/\(Self.architecture)/\(setup.tarballName)").path),
                "the bad tarball is not kept for the cache")
        #expect(run.step("hubgeo validate")?.skipped == true)

        // The same tarball under its own checksum is installed and run: the mark above would have shown it.
        try FileManager.default.removeItem(at: published.appendingPathComponent(setup.tarballName + ".sha256"))
        try FileManager.default.copyItem(at: evilChecksum, to: published.appendingPathComponent(setup.tarballName + ".sha256"))
        let trusted = try Self.run(setup, server: server)
        #expect(trusted.step("Install hubgeo")?.status == 0, "\(trusted.step("Install hubgeo")?.log ?? [])")
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }

    @Test("a cached tarball that does not match the published checksum is not used")
    func tamperedCacheRefused() throws {
        let setup = try Self.setup(change: nil)
        let cached = setup.toolCache.appendingPathComponent("hubgeo/\(Self.version)/\(Self.architecture)")
        try FileManager.default.createDirectory(at: cached, withIntermediateDirectories: true)
        let marker = setup.directory.url.appendingPathComponent("ran")
        let script = try setup.directory.write("evil-hubgeo", "#!/bin/sh\n: > '\(marker.path)'\necho \(Self.version)\n")
        chmod(script.path, 0o755)
        try Self.pack(script, as: setup.tarballName.replacingOccurrences(of: ".tar.gz", with: ""), into: cached, scratch: setup.directory.url)
        let server = try LoopbackServer(root: setup.release, lifetime: 300)
        defer { server.stop() }
        let run = try Self.run(setup, server: server)
        #expect(run.status == 1 && run.step("Install hubgeo")?.status == 1)
        #expect(try server.requests().map(\.path) == ["/\(setup.tarballName).sha256"], "a cache hit downloads only the checksum file")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(!FileManager.default.fileExists(atPath: cached.appendingPathComponent(setup.tarballName).path))
    }

    @Test("the version defaults to the action's own (HubGeoVersion), the one hubgeo --version prints")
    func versionOfTheAction() throws {
        let printed = try CommandRunner.hubgeo(["--version"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed == Self.version)
    }
}
