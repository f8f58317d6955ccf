import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// A Level 1 URL with a user and password (`https://user:pass@host/x.level1.json`): the requests
/// carry them (libcurl sends them as Basic authentication), but hubgeo never shows them (tables,
/// JSON, diagnostics, errors, `--verbose`) nor stores them (document cache, import runs,
/// organizations' sources): everywhere the URL reads `http://***@host/...`.
@Suite("URLs with credentials: fetched with them, never shown or stored", .serialized)
struct URLCredentialsTests {
    typealias Tree = DocumentCacheTests.Tree
    static let user = "hubuser"
    static let password = "s3cretpw"

    /// The URL of `path` on the tree's server, with the credentials.
    static func secretURL(_ tree: Tree, _ path: String) -> String {
        "http://\(user):\(password)@127.0.0.1:\(tree.server.port)\(path)"
    }

    static func expectNoCredentials(_ text: String, _ context: String) {
        #expect(!text.contains(user) && !text.contains(password), "\(context) shows the credentials: \(text)")
    }

    @Test func importSourcesStatsShowAndTheDatabaseHoldNoCredentials() throws {
        let tree = try Tree()
        let root = Self.secretURL(tree, "/root.level1.json")
        let imported = try tree.cli.run(["import", root, "--verbose"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported http://***@127.0.0.1:\(tree.server.port)/root.level1.json"), "\(imported.stdout)")
        #expect(imported.stdout.contains("fetched       http://***@127.0.0.1:\(tree.server.port)/clubs.level1.json"), "\(imported.stdout)")
        Self.expectNoCredentials(imported.stdout + imported.stderr, "import --verbose")

        // The requests carried them: every document of the tree, the Level 2 files too.
        let basic = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
        let requests = try tree.server.requests()
        #expect(Set(requests.map(\.path)) == Set(Tree.paths))
        #expect(requests.allSatisfy { $0.headers["authorization"] == basic }, "\(requests.map(\.headers))")

        // Again: conditional requests, matched to the cache rows stored under the redacted URL.
        let again = try tree.cli.run(["import", root, "--verbose"])
        #expect(again.status == 0 && again.stdout.contains("Nothing changed since the last import"), "\(again.stdout)")
        Self.expectNoCredentials(again.stdout + again.stderr, "second import")
        #expect(try tree.server.requests().dropFirst(requests.count).allSatisfy { $0.isConditional && $0.status == 304 })

        for arguments in [["sources"], ["sources", "--format", "json"], ["stats"], ["stats", "--format", "json"],
                          ["show", "club0"], ["show", "club0", "--format", "json"], ["near", "51", "5", "--format", "json"],
                          ["export", "geojson"]] {
            let result = try tree.cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            Self.expectNoCredentials(result.stdout + result.stderr, arguments.joined(separator: " "))
        }
        let sources = try tree.cli.run(["sources"])
        #expect(sources.stdout.contains("http://***@127.0.0.1:\(tree.server.port)/club0.level2.json"), "\(sources.stdout)")

        let dump = try CommandRunner.tool("sqlite3", [tree.database, ".dump"], package: "sqlite3")
        #expect(dump.status == 0 && dump.text.contains("***@127.0.0.1"), "\(dump.stderr)")
        Self.expectNoCredentials(dump.text, "the database")
    }

    @Test func credentialsAnOlderHubgeoStoredAreRemovedByTheNextImport() throws {
        let tree = try Tree()
        let root = Self.secretURL(tree, "/root.level1.json")
        #expect(try tree.cli.run(["import", root]).status == 0)
        // As an older hubgeo left them: cache rows and an import's source under the URL with credentials.
        let time = RFC3339.string(Date())
        let stored = try CommandRunner.tool("sqlite3", [tree.database, """
            INSERT INTO document_cache (url, status, fetched_at, checked_at, size) VALUES
                ('\(Self.secretURL(tree, "/clubs.level1.json"))', 404, '\(time)', '\(time)', 0),
                ('\(Self.secretURL(tree, "/old.level1.json"))', 404, '\(time)', '\(time)', 0);
            UPDATE import_run SET source = '\(root)';
            """], package: "sqlite3")
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(try tree.cli.run(["import", root]).status == 0)
        let dump = try CommandRunner.tool("sqlite3", [tree.database, ".dump"], package: "sqlite3")
        Self.expectNoCredentials(dump.text, "the database after an import")
        let sources = try tree.cli.run(["sources", "--format", "json"])
        #expect(sources.stdout.contains("http://***@127.0.0.1:\(tree.server.port)/old.level1.json"), "\(sources.stdout)")
        #expect(sources.stdout.components(separatedBy: "/clubs.level1.json").count == 2, "one row for clubs.level1.json: \(sources.stdout)")
    }

    @Test func errorsAndValidateNameTheURLWithoutCredentials() throws {
        let tree = try Tree()
        let missing = try tree.cli.run(["import", Self.secretURL(tree, "/missing.level1.json")])
        #expect(missing.status == 1 && missing.stderr.contains("http://***@127.0.0.1:\(tree.server.port)/missing.level1.json"),
                "\(missing.stderr)")
        Self.expectNoCredentials(missing.stdout + missing.stderr, "a missing root")

        let closed = try RefusingPort()
        let refused = try tree.cli.run(["import", "http://\(Self.user):\(Self.password)@127.0.0.1:\(closed.port)/root.level1.json"])
        #expect(refused.status == 1 && refused.stderr.contains("Could not connect to http://***@127.0.0.1"), "\(refused.stderr)")
        Self.expectNoCredentials(refused.stdout + refused.stderr, "a refused connection")

        let validated = try tree.cli.run(["validate", Self.secretURL(tree, "/root.level1.json"), "--format", "json"])
        #expect(validated.stdout.contains("***@127.0.0.1"), "\(validated.stdout)")
        Self.expectNoCredentials(validated.stdout + validated.stderr, "validate")

        // The tree's server is no Nominatim: its 404 is an error that names the endpoint.
        let geocode = try tree.cli.run(["geocode", "51.4", "5.4", "--nominatim-url", Self.secretURL(tree, "")])
        #expect(geocode.status == 1 && geocode.stderr.contains("HTTP 404 at http://***@127.0.0.1"), "\(geocode.stderr)")
        Self.expectNoCredentials(geocode.stdout + geocode.stderr, "geocode")
    }

    @Test func theRedactedFormKeepsEverythingButTheCredentials() {
        #expect(URLRedaction.redacted("https://user:pass@example.org:8443/a/b.json?q=1#f") == "https://***@example.org:8443/a/b.json?q=1#f")
        #expect(URLRedaction.redacted("https://user@example.org/x") == "https://***@example.org/x")
        #expect(URLRedaction.redacted("https://example.org/x?mail=a@b.c") == "https://example.org/x?mail=a@b.c")
        #expect(URLRedaction.redacted("https://u:p@ss@example.org/x") == "https://***@example.org/x")
        #expect(URLRedaction.redacted("/local/path@2x.json") == "/local/path@2x.json")
        #expect(DocumentLocation.remote(URL(string: "http://u:p@h/x.json")!).description == "http://***@h/x.json")
    }
}
