import Foundation
import HubGeoTestSupport
import Testing

/// Level 1/2 files fetched by URL, end to end through `hubgeo import URL` and `hubgeo validate URL`
/// against a loopback server: http(s) only, a size cap, a timeout, a redirect cap, each a clear error.
@Suite("Remote Level 1/2 files: scheme, size, timeout and redirect limits")
struct RemoteLimitsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The root URL, from the server's base URL.
        var url: @Sendable (URL) -> String
        var expect: String
        var environment: [String: String] = [:]
        var testDescription: String { name }
    }

    static let good = Level1Builder.level1(clubs: [
        .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46),
    ])

    static let script: [String: [LoopbackServer.Response]] = [
        "/to-ftp.level1.json": [.init(status: 302, redirectTo: "ftp://127.0.0.1/root.level1.json")],
        "/slow.level1.json": [.init(body: good, delay: 5)],
        "/hang.level1.json": [.action(.hang)],
        "/error.level1.json": [.init(status: 500, body: "oops")],
        "/truncated.level1.json": [.action(.truncate)],
        "/includes-slow.level1.json": [.init(body: Level1Builder.level1(includes: ["slow.level1.json"]))],
        "/includes-gone.level1.json": [.init(body: Level1Builder.level1(includes: ["gone.level1.json"]))],
        "/gone.level1.json": [.init(status: 404)],
    ]

    static let cases: [Case] = [
        Case(name: "ftp URL", url: { _ in "ftp://127.0.0.1/root.level1.json" }, expect: "only http and https URLs are supported"),
        Case(name: "file-like scheme", url: { _ in "gopher://127.0.0.1/root.level1.json" }, expect: "only http and https URLs are supported"),
        Case(name: "redirect to ftp", url: { $0.appendingPathComponent("to-ftp.level1.json").absoluteString }, expect: "only http and https"),
        Case(name: "six redirects", url: { URL(string: $0.absoluteString + "/__redirect?n=6")!.absoluteString }, expect: "redirected more than 5 times"),
        Case(name: "body over the size cap", url: { URL(string: $0.absoluteString + "/__big?bytes=300000")!.absoluteString },
             expect: "larger than the limit of 100000 bytes", environment: ["HUBGEO_HTTP_MAX_BYTES": "100000"]),
        Case(name: "chunked body over the size cap", url: { URL(string: $0.absoluteString + "/__big?bytes=300000&chunked=1")!.absoluteString },
             expect: "larger than the limit of 100000 bytes", environment: ["HUBGEO_HTTP_MAX_BYTES": "100000"]),
        Case(name: "slow server", url: { $0.appendingPathComponent("slow.level1.json").absoluteString },
             expect: "timed out after 1 s", environment: ["HUBGEO_HTTP_TIMEOUT": "1"]),
        Case(name: "hanging server", url: { $0.appendingPathComponent("hang.level1.json").absoluteString },
             expect: "timed out after 1 s", environment: ["HUBGEO_HTTP_TIMEOUT": "1"]),
        Case(name: "slow include", url: { $0.appendingPathComponent("includes-slow.level1.json").absoluteString },
             expect: "slow.level1.json timed out after 1 s", environment: ["HUBGEO_HTTP_TIMEOUT": "1"]),
        Case(name: "HTTP 500", url: { $0.appendingPathComponent("error.level1.json").absoluteString }, expect: "the server answered HTTP 500"),
        Case(name: "truncated transfer", url: { $0.appendingPathComponent("truncated.level1.json").absoluteString }, expect: "failed"),
        Case(name: "include answers 404", url: { $0.appendingPathComponent("includes-gone.level1.json").absoluteString },
             expect: "gone.level1.json does not exist"),
        Case(name: "refused connection", url: { _ in "http://127.0.0.1:1/root.level1.json" }, expect: "Could not connect"),
    ]

    @Test(arguments: cases)
    func violationIsAClearErrorForImportAndValidate(_ testCase: Case) throws {
        let server = try LoopbackServer(script: Self.script, lifetime: 60)
        defer { server.stop() }
        let home = try TestPaths.temporaryDirectory()
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        cli.environment.merge(testCase.environment) { $1 }
        let url = testCase.url(server.baseURL)

        let validate = try cli.run(["validate", url], timeout: 30)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains(": error: ") && validate.stdout.contains(testCase.expect), "\(validate.stdout)\(validate.stderr)")

        let imported = try cli.run(["import", url], timeout: 30)
        #expect(imported.status == 1)
        #expect(imported.stderr.contains(testCase.expect), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path("hub.sqlite")), "a failed fetch creates no database")
    }

    @Test func aRefusedRedirectNamesTheURLThatRedirectedAndItsTarget() throws {
        let server = try LoopbackServer(script: Self.script, lifetime: 60)
        defer { server.stop() }
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let url = server.url("/to-ftp.level1.json").absoluteString
        let both = "from \(url) to ftp://127.0.0.1/root.level1.json"
        let imported = try cli.run(["import", url], timeout: 30)
        #expect(imported.status == 1)
        #expect(imported.stderr.contains(both), "\(imported.stderr)")
        let validate = try cli.run(["validate", url], timeout: 30)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains(both), "\(validate.stdout)")

        let chain = server.url("/__redirect?n=6").absoluteString
        let tooMany = try cli.run(["import", chain], timeout: 30)
        #expect(tooMany.status == 1)
        #expect(tooMany.stderr.contains("from \(server.url("/__redirect?n=1").absoluteString) to \(server.url("/__redirect?n=0").absoluteString)"),
                "\(tooMany.stderr)")
    }

    @Test func goodTreeOverHTTPValidatesAndImports() throws {
        let directory = try TestPaths.temporaryDirectory()
        try directory.write("root.level1.json", Self.good)
        let server = try LoopbackServer(root: directory.url, lifetime: 30)
        defer { server.stop() }
        let cli = CLIRunner(database: directory.path("hub.sqlite"), home: directory.url.path)
        let validate = try cli.run(["validate", server.url("/root.level1.json").absoluteString, "--format", "json"])
        #expect(validate.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any])
        #expect(json["errors"] as? Int == 0 && json["passed"] as? Bool == true && json["organizations"] as? Int == 1)
        #expect(try cli.run(["import", server.url("/root.level1.json").absoluteString]).status == 0)
    }
}
