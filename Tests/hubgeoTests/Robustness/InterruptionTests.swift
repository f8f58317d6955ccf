import Foundation
@testable import HubGeoDatabase
@testable import HubGeoGeocoding
import HubGeoHTTP
@testable import HubGeoModel
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM against a slow server: `localize` and `import URL` stop within about
/// a second (the tests allow 3 s), whatever they were waiting for (an answer in flight, a retry's
/// backoff, a `Retry-After`), send no further request, keep what was committed (`localize`'s
/// answers) or roll back (`import`), and exit 130.
@Suite("Ctrl-C and SIGTERM stop localize and import at once", .serialized)
struct InterruptionTests {
    typealias Tree = DocumentCacheTests.Tree
    /// The longest a signalled hubgeo may take to exit before the test calls it hung and kills it.
    static let exitBound: TimeInterval = 3

    /// Waits until `server` has logged at least `count` requests (at most `timeout` seconds); their number.
    static func waitForRequests(_ server: LoopbackServer, count: Int, timeout: TimeInterval = 60) throws -> Int {
        try? Waiting.until("\(count) requests logged by the loopback server", timeout: timeout) { try server.requests().count >= count }
        return try server.requests().count
    }

    /// Sends `signal` to `process`: when (monotonic seconds, the clock of the server's log), and
    /// how long it took to exit (nil: it did not within ``exitBound`` and was killed).
    static func interrupt(_ process: Process, with signal: Int32) -> (sent: TimeInterval, elapsed: TimeInterval?) {
        let sent = SystemClock().now()
        kill(process.processIdentifier, signal)
        let exited = ImportRobustnessTests.wait(process, timeout: exitBound)
        return (sent, exited ? SystemClock().now() - sent : nil)
    }

    /// The requests `server` logged after `time` (monotonic seconds). The signalled hubgeo has exited, so
    /// what it sent is in the server's queue: a probe sent now (from a thread, since a stalling server
    /// may never answer it) and logged marks that the server has read what arrived before it.
    static func requests(_ server: LoopbackServer, after time: TimeInterval) throws -> [String] {
        let probe = "/__probe-\(UUID().uuidString)"
        let url = server.url(probe)
        Thread.detachNewThread {
            let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo-tests", connectTimeout: 5, totalTimeout: 5,
                                                                            maxBodyBytes: 1 << 20))
            _ = try? client.get(url)
        }
        try Waiting.until("the probe \(probe) in the loopback server's log", timeout: 30) {
            try server.requests().contains { $0.path == probe }
        }
        return try server.requests().filter { $0.t > time && $0.path != probe }.map { $0.path + "?" + $0.query }
    }

    static func text(_ directory: TemporaryDirectory, _ name: String) -> String {
        (try? String(contentsOfFile: directory.path(name), encoding: .utf8)) ?? ""
    }

    static func localizeEnvironment(_ server: LoopbackServer, database: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HUBGEO_") }
        environment["HUBGEO_DB"] = database
        environment["HUBGEO_NOMINATIM_URL"] = server.baseURL.absoluteString
        environment["HUBGEO_REQUEST_INTERVAL"] = "0"
        environment["HUBGEO_CONFIG"] = "/nonexistent"
        return environment
    }

    /// Three answers, then `stall` for every later request; SIGINT or SIGTERM once the fourth arrived
    /// (and, with `resent`, the fifth: curl's own resend of it on a fresh connection).
    func localizeIsInterrupted(stall: LoopbackServer.Response, signal: Int32, resent: Bool = false) throws {
        let directory = try TestPaths.temporaryDirectory()
        let answer = LoopbackServer.Response(headers: ["Content-Type": "application/json"],
                                             bodyFile: NominatimStandIn.standin.appendingPathComponent("eindhoven_en.json").path, times: 3)
        let server = try NominatimStandIn.start(faults: [answer, stall], lifetime: 120)
        let environment = Self.localizeEnvironment(server, database: directory.path("hub.sqlite"))
        let process = try ImportRobustnessTests.start(["localize", "--lang", "en", "--type", "museum"], environment: environment,
                                                      in: directory, name: "localize")
        let stalled = resent ? 5 : 4
        let seen = try Self.waitForRequests(server, count: stalled)
        try #require(seen >= stalled, "three answers and the stalled request\(resent ? " and its resend" : ""): \(seen)")
        // No pause: the server has logged the stalled request, so hubgeo is inside the stall now.
        let (sent, elapsed) = Self.interrupt(process, with: signal)
        let stderr = Self.text(directory, "localize.err")
        #expect(elapsed != nil, "still running \(Self.exitBound) s after the signal: \(stderr)")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("Interrupted: every answer so far is saved"), "\(stderr)")
        let after = try Self.requests(server, after: sent)
        let all = try server.requests().map { "\($0.t) port \($0.clientPort) \($0.path)" }
        #expect(after.isEmpty, "no request after the signal at \(sent): \(after); all: \(all)")
        print("localize, \(signal == SIGINT ? "SIGINT" : "SIGTERM"): exited \(elapsed.map { String(format: "%.2f s", $0) } ?? "never") after the signal")

        // The three answers were committed as they arrived.
        let offline = try CommandRunner.run(try CLIRunner.binary(), ["localize", "--lang", "en", "--type", "museum", "--offline"],
                                            environment: environment, timeout: 60)
        #expect(offline.status == 0 && offline.stderr.contains("cache hits: 3;"), "\(offline.stderr)")
    }

    @Test func sigintStopsLocalizeDuringASlowAnswer() throws {
        try localizeIsInterrupted(stall: LoopbackServer.Response(body: "{}", delay: 25), signal: SIGINT)
    }

    @Test func sigtermStopsLocalizeWaitingOutARetryAfter() throws {
        try localizeIsInterrupted(stall: LoopbackServer.Response(status: 503, headers: ["Retry-After": "60"]), signal: SIGTERM)
    }

    @Test func sigintStopsLocalizeInTheBackoffBeforeARetry() throws {
        // The fourth request goes out on the connection kept alive since the answers; its reset makes
        // curl resend it at once on a fresh connection (logged a few milliseconds later: the signal
        // must wait for it, or the test races curl). That reset is hubgeo's transient failure, retried
        // after a backoff of 1 s, 2 s, 4 s: the signal comes inside the first.
        try localizeIsInterrupted(stall: .action(.reset), signal: SIGINT, resent: true)
    }

    @Test func sigtermStopsAnImportFromAURLAndLeavesTheDatabaseAsItWas() throws {
        let tree = try Tree(lifetime: 120)
        let first = try tree.importing()
        #expect(first.status == 0, "\(first.stderr)")
        let before = try tree.organizations()
        let cacheBefore = try DocumentCache.entries(store: OrganizationStore(path: tree.database))

        try Tree.write(version: "B", clubs: Tree.clubCount, into: tree.directory)
        try tree.server.control(["/clubs.level1.json": .action(.hang)])
        let scratch = try TestPaths.temporaryDirectory()
        let requestsBefore = try tree.server.requests().count
        let process = try ImportRobustnessTests.start(["import", tree.root], environment: tree.cli.environment, in: scratch, name: "import")
        let seen = try Self.waitForRequests(tree.server, count: requestsBefore + 2)
        try #require(try tree.server.requests().last?.path == "/clubs.level1.json", "the root, then the hanging include: \(seen)")
        // No pause: the server has logged the hanging request, so hubgeo is waiting for its answer now.
        let (sent, elapsed) = Self.interrupt(process, with: SIGTERM)
        let stderr = Self.text(scratch, "import.err")
        #expect(elapsed != nil, "still running \(Self.exitBound) s after the signal: \(stderr)")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("Interrupted") && stderr.contains("as it was"), "\(stderr)")
        #expect(try Self.requests(tree.server, after: sent).isEmpty, "no request after the signal")
        print("import, SIGTERM: exited \(elapsed.map { String(format: "%.2f s", $0) } ?? "never") after the signal")

        #expect(try tree.organizations() == before, "the organizations of the first import")
        #expect(try DocumentCache.entries(store: OrganizationStore(path: tree.database)) == cacheBefore, "the document cache as it was")
    }

    @Test func sigintStopsAFirstImportFromAURLAndLeavesNoDatabase() throws {
        let tree = try Tree(lifetime: 120)
        try tree.server.control(["/museums.level1.json": .action(.hang)])
        let scratch = try TestPaths.temporaryDirectory()
        let process = try ImportRobustnessTests.start(["import", tree.root], environment: tree.cli.environment, in: scratch, name: "import")
        let seen = try Self.waitForRequests(tree.server, count: 3)
        try #require(try tree.server.requests().last?.path == "/museums.level1.json", "\(seen)")
        // No pause: the server has logged the hanging request, so hubgeo is waiting for its answer now.
        let (sent, elapsed) = Self.interrupt(process, with: SIGINT)
        let stderr = Self.text(scratch, "import.err")
        #expect(elapsed != nil, "still running \(Self.exitBound) s after the signal: \(stderr)")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(try Self.requests(tree.server, after: sent).isEmpty, "no request after the signal")
        let left = try FileManager.default.contentsOfDirectory(atPath: tree.home.url.path).filter { $0.contains("hub.sqlite") }
        #expect(left.isEmpty, "no database and no staging file: \(left)")
    }
}
