import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hubgeo import URL` through the document cache, against a loopback server that serves a tree
/// from a folder with ETag and Last-Modified (304 when they still match), counts requests per
/// path, and can answer a path with a fault between two imports.
@Suite("Document cache: conditional re-imports, --max-age, --offline, faults")
struct DocumentCacheTests {
    /// A served tree: root.level1.json includes clubs.level1.json and museums.level1.json; each
    /// club has its Level 2 file. `version` changes every name's suffix and every remark.
    struct Tree {
        static let clubCount = 2
        let directory: TemporaryDirectory
        let server: LoopbackServer
        let home: TemporaryDirectory
        var cli: CLIRunner
        var root: String { server.url("/root.level1.json").absoluteString }
        var database: String { home.path("hub.sqlite") }
        static let paths = ["/root.level1.json", "/clubs.level1.json", "/museums.level1.json"]
            + (0..<clubCount).map { "/club\($0).level2.json" }

        init(clubs: Int = clubCount, staticDelay: TimeInterval = 0, lifetime: TimeInterval = 120) throws {
            directory = try TestPaths.temporaryDirectory()
            home = try TestPaths.temporaryDirectory()
            try Self.write(version: "A", clubs: clubs, into: directory)
            server = try LoopbackServer(root: directory.url, lifetime: lifetime, staticDelay: staticDelay)
            cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        }

        static func club(_ index: Int, version: String) -> Level1Builder.Entry {
            .init(town: "Town \(index)", fullName: "Club \(version) \(index)", nickName: "club\(index)",
                  latitude: 51 + Double(index) / 100, longitude: 5 + Double(index) / 100,
                  optional: #"{"remark": [{"language": "EN", "value": "Remark \#(version) \#(index)"}]}"#)
        }

        /// Writes the tree's files (atomically: the server never reads half a file).
        static func write(version: String, clubs: Int, into directory: TemporaryDirectory) throws {
            let entries = (0..<clubs).map { club($0, version: version) }
            let museum = Level1Builder.Entry(town: "Eindhoven", fullName: "Museum \(version)", nickName: "museum",
                                             latitude: 51.44, longitude: 5.48)
            var files = [
                "root.level1.json": Level1Builder.level1(includes: ["clubs.level1.json", "museums.level1.json"]),
                "clubs.level1.json": Level1Builder.level1(clubs: entries),
                "museums.level1.json": Level1Builder.level1(museums: [museum]),
            ]
            for (index, entry) in entries.enumerated() {
                files["club\(index).level2.json"] = Level1Builder.level2(
                    club: entry, members: #"[{"name": {"givenName": "Ann", "infixName": "", "familyName": "Member \#(version)"}}]"#)
            }
            for (name, text) in files { try Data(text.utf8).write(to: directory.url.appendingPathComponent(name), options: .atomic) }
        }

        func importing(_ extra: [String] = [], timeout: TimeInterval = 60) throws -> CLIRunner.Result {
            try cli.run(["import", root] + extra, timeout: timeout)
        }

        func organizations() throws -> [String] {
            try OrganizationStore(path: database).database.read { db in
                try String.fetchAll(db, sql: "SELECT full_name FROM organization ORDER BY full_name")
            }
        }
    }

    @Test func aSecondImportSendsOnlyConditionalRequestsAndGetsOnly304s() throws {
        let tree = try Tree()
        let first = try tree.importing()
        #expect(first.status == 0, "\(first.stderr)")
        let firstRequests = try tree.server.requests()
        #expect(firstRequests.count == Tree.paths.count)
        #expect(firstRequests.allSatisfy { $0.status == 200 && !$0.isConditional })
        #expect(first.stdout.contains("Documents: 5 fetched, 0 not modified, 0 served from the cache, 0 absent (404); 5 requests"),
                "\(first.stdout)")

        let second = try tree.importing()
        #expect(second.status == 0, "\(second.stderr)")
        let secondRequests = Array(try tree.server.requests().dropFirst(firstRequests.count))
        #expect(Set(secondRequests.map(\.path)) == Set(Tree.paths) && secondRequests.count == Tree.paths.count)
        #expect(secondRequests.allSatisfy { $0.isConditional && $0.headers["if-none-match"] != nil }, "\(secondRequests.map(\.headers))")
        #expect(secondRequests.allSatisfy { $0.status == 304 }, "\(secondRequests.map(\.status))")
        #expect(second.stdout.contains("Documents: 0 fetched, 5 not modified, 0 served from the cache, 0 absent (404); 5 requests, 0 bytes transferred"),
                "\(second.stdout)")
        #expect(second.stdout.contains("Nothing changed since the last import: the organizations are untouched."))
        #expect(second.stdout.contains("0 added, 0 changed, 0 removed, 3 unchanged"))
        // Each document's bytes (from the 304s, the cached copies) hash as before: none is parsed.
        #expect(second.stdout.contains("Unchanged since the last import: 5 documents read and hashed, none parsed"), "\(second.stdout)")
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])
        // The clubs kept their Level 2 data, read from the cached bodies.
        let members = try OrganizationStore(path: tree.database).database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM organization_member") ?? 0
        }
        #expect(members == Tree.clubCount)
    }

    @Test func aChangedFileIsFetchedAlone() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        let before = try tree.server.requests().count
        var clubs = (0..<Tree.clubCount).map { Tree.club($0, version: "A") }
        clubs[1].latitude += 0.5
        try Data(Level1Builder.level1(clubs: clubs).utf8).write(to: tree.directory.url.appendingPathComponent("clubs.level1.json"),
                                                                options: .atomic)
        let second = try tree.importing()
        #expect(second.status == 0, "\(second.stderr)")
        let requests = Array(try tree.server.requests().dropFirst(before))
        for path in Tree.paths {
            let forPath = requests.filter { $0.path == path }
            #expect(forPath.count == 1, "\(path) requested \(forPath.count) times")
            #expect(forPath.first?.status == (path == "/clubs.level1.json" ? 200 : 304), "\(path)")
        }
        #expect(second.stdout.contains("Documents: 1 fetched, 4 not modified"), "\(second.stdout)")
        #expect(second.stdout.contains("0 added, 1 changed, 0 removed, 2 unchanged"), "\(second.stdout)")
        #expect(!second.stdout.contains("Nothing changed"))
    }

    @Test func maxAgeMakesNoRequestForAYoungCopyAndRevalidatesAnOldOne() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        let before = try tree.server.requests().count
        let young = try tree.importing(["--max-age", "1h"])
        #expect(young.status == 0, "\(young.stderr)")
        #expect(try tree.server.requests().count == before, "no request for copies younger than 1h")
        #expect(young.stdout.contains("0 fetched, 0 not modified, 5 served from the cache"), "\(young.stdout)")
        #expect(young.stdout.contains("; 0 requests, 0 bytes transferred"))
        #expect(young.stdout.contains("Nothing changed since the last import"))

        // A real sleep, and the subject of the test: copies more than 1 s old for --max-age 1s.
        sleep(2)
        let old = try tree.importing(["--max-age", "1s"])
        #expect(old.status == 0, "\(old.stderr)")
        let requests = Array(try tree.server.requests().dropFirst(before))
        #expect(requests.count == Tree.paths.count && requests.allSatisfy { $0.isConditional && $0.status == 304 })

        for bad in ["7x", "-1d", "d", "1.5d"] {
            let usage = try tree.importing(["--max-age=\(bad)"])
            #expect(usage.status == 64, "--max-age \(bad)")
            #expect(usage.stderr.contains("--max-age must be a duration"), "\(usage.stderr)")
        }
        #expect(try tree.importing(["--offline", "--refresh"]).status == 64)
        #expect(DocumentCachePolicy.duration("7d") == 7 * 86_400 && DocumentCachePolicy.duration("12h") == 43_200
                && DocumentCachePolicy.duration("1d12h") == 129_600 && DocumentCachePolicy.duration("90") == 90
                && DocumentCachePolicy.duration("2w") == 1_209_600)
    }

    @Test func offlineImportsFromTheCacheWithTheNetworkDownAndSaysHowOldEachCopyIs() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        try Tree.write(version: "B", clubs: Tree.clubCount, into: tree.directory)  // what a fetch would now get
        tree.server.stop()
        let offline = try tree.importing(["--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        for path in Tree.paths {
            #expect(offline.stderr.contains("offline: \(tree.server.url(path).absoluteString): cached copy "), "\(path): \(offline.stderr)")
        }
        #expect(offline.stdout.contains("0 fetched, 0 not modified, 5 served from the cache ("), "\(offline.stdout)")
        #expect(offline.stdout.contains("; 0 requests, 0 bytes transferred"))
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])

        // Without --offline, the network down keeps every last good copy, each with a warning.
        let down = try tree.importing()
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stderr.components(separatedBy: "Could not connect").count - 1 == Tree.paths.count, "\(down.stderr)")
        #expect(down.stderr.contains("using the cached copy, last confirmed "))

        // A document never fetched is an error that names it.
        let other = tree.server.url("/other.level1.json").absoluteString
        let never = try tree.cli.run(["import", other, "--offline"])
        #expect(never.status == 1)
        #expect(never.stderr.contains("\(other): cannot read: never fetched"), "\(never.stderr)")
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])
    }

    @Test func aServerFaultKeepsTheLastGoodCopyWithAWarningAndTheImportGoesOn() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        try Tree.write(version: "B", clubs: Tree.clubCount, into: tree.directory)
        try tree.server.control([
            "/clubs.level1.json": .init(status: 503, body: "down for maintenance"),
            "/club0.level2.json": .action(.reset),
            "/museums.level1.json": .action(.hang),
        ])
        var cli = tree.cli
        cli.environment["HUBGEO_HTTP_TIMEOUT"] = "1"
        let faulty = try cli.run(["import", tree.root])
        #expect(faulty.status == 0, "\(faulty.stderr)")
        let warnings = faulty.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: http") }
        #expect(warnings.count == 3, "\(faulty.stderr)")
        for (path, reason) in [("/clubs.level1.json", "the server answered HTTP 503"), ("/club0.level2.json", "Transfer from"),
                               ("/museums.level1.json", "timed out after 1 s")] {
            let url = tree.server.url(path).absoluteString
            #expect(warnings.contains { $0.hasPrefix("warning: \(url): ") && $0.contains(reason) && $0.contains("using the cached copy, last confirmed ")
                && $0.hasSuffix(" old)") }, "\(path): \(faulty.stderr)")
        }
        // The faulty documents kept version A; the root and club1's Level 2 file came fresh.
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])
        #expect(faulty.stdout.contains("Documents: 1 fetched, 1 not modified, 3 served from the cache"), "\(faulty.stdout)")

        try tree.server.control([:])
        let healed = try tree.importing()
        #expect(healed.status == 0)
        #expect(try tree.organizations() == ["Club B 0", "Club B 1", "Museum B"])
    }

    @Test func aMalformedNewCopyNeverReplacesTheGoodOneAndIsNamedWithItsLine() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        let url = tree.server.url("/clubs.level1.json").absoluteString
        let goodHash = try #require(try DocumentCache.entries(store: OrganizationStore(path: tree.database)).first { $0.url == url }?.bodyHash)
        try tree.server.control(["/clubs.level1.json": .init(body: "{\"clubs\": [\n  {\"idPlus\": \n")])
        let broken = try tree.importing()
        #expect(broken.status == 0, "\(broken.stderr)")
        #expect(broken.stderr.contains("warning: \(url): the new copy is malformed JSON at line 3"), "\(broken.stderr)")
        let entries = try DocumentCache.entries(store: OrganizationStore(path: tree.database))
        #expect(entries.first { $0.url == url }?.bodyHash == goodHash, "the good copy stays")
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])

        try tree.server.control([:])
        let before = try tree.server.requests().count
        #expect(try tree.importing().status == 0)
        let clubs = try tree.server.requests().dropFirst(before).filter { $0.path == "/clubs.level1.json" }
        #expect(clubs.count == 1 && clubs.first?.status == 304, "the good copy's validators were kept")

        // Without a good copy (a new database), a malformed body fails the import, naming the URL and the line.
        try tree.server.control(["/museums.level1.json": .init(body: "[1,\n2,,]")])
        let other = try TestPaths.temporaryDirectory()
        let failed = try CLIRunner(database: other.path("hub.sqlite"), home: other.url.path).run(["import", tree.root])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(tree.server.url("/museums.level1.json").absoluteString):2:"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.path("hub.sqlite")))
    }

    @Test func aDocumentNeverFetchedStillFailsTheImportAndNothingChanges() throws {
        let tree = try Tree()
        #expect(try tree.importing().status == 0)
        let sourcesBefore = try tree.cli.run(["sources", "--format", "json"]).stdout
        try Data(Level1Builder.level1(includes: ["clubs.level1.json", "museums.level1.json", "new.level1.json"]).utf8)
            .write(to: tree.directory.url.appendingPathComponent("root.level1.json"), options: .atomic)
        try tree.server.control(["/new.level1.json": .init(status: 500, body: "oops")])
        let failed = try tree.importing()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(tree.server.url("/new.level1.json").absoluteString): cannot read: the server answered HTTP 500"),
                "\(failed.stderr)")
        #expect(try tree.organizations() == ["Club A 0", "Club A 1", "Museum A"])
        // The cache rolled back with the organizations: the old root, its old validators and marks.
        let sourcesAfter = try tree.cli.run(["sources", "--format", "json"]).stdout
        let strip = { (text: String) in text.split(separator: "\n").filter { !$0.contains("ageSeconds") }.joined(separator: "\n") }
        #expect(strip(sourcesAfter) == strip(sourcesBefore))
    }

    @Test func aRemoteTreeCannotReachALocalFileOrClimbAboveTheServersRoot() throws {
        let directory = try TestPaths.temporaryDirectory()
        let secret = try directory.write("secret.level1.json", RemoteLimitsTests.good)
        try directory.write("file.level1.json", Level1Builder.level1(includes: [secret.absoluteString]))
        try directory.write("climb.level1.json", Level1Builder.level1(includes: ["../../../../" + secret.path]))
        try directory.write("encoded.level1.json", Level1Builder.level1(includes: ["%2e%2e/%2e%2e/etc/passwd.level1.json"]))
        let server = try LoopbackServer(root: directory.url, lifetime: 60)
        defer { server.stop() }
        let cli = CLIRunner(database: directory.path("hub.sqlite"), home: directory.url.path)
        // Includes followed as written (--follow-include-urls): refused.
        for (name, expect) in [("file", "never a local file"), ("climb", "climbs above the root of 127.0.0.1"),
                               ("encoded", "climbs above the root of 127.0.0.1")] {
            let url = server.url("/\(name).level1.json").absoluteString
            let imported = try cli.run(["import", url, "--follow-include-urls"])
            #expect(imported.status == 1, "\(name)")
            #expect(imported.stderr.contains(url) && imported.stderr.contains("refused include") && imported.stderr.contains(expect),
                    "\(name): \(imported.stderr)")
            let validate = try cli.run(["validate", url, "--follow-include-urls"])
            #expect(validate.status == 1 && validate.stdout.contains(expect), "\(name): \(validate.stdout)")
        }
        #expect(try server.requests().allSatisfy { !$0.path.contains("secret") && !$0.path.contains("passwd") })
        // By default only the name counts, read next to the including file: the climbing include is the
        // server's own /secret.level1.json, the encoded one a /passwd.level1.json that does not exist.
        let byName = try cli.run(["import", server.url("/climb.level1.json").absoluteString])
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(try server.requests().map(\.path).filter { $0.contains("secret") } == ["/secret.level1.json"])
        let missing = try cli.run(["validate", server.url("/encoded.level1.json").absoluteString])
        #expect(missing.status == 1 && missing.stdout.contains("/passwd.level1.json does not exist"), "\(missing.stdout)")
        #expect(try server.requests().map(\.path).filter { $0.contains("passwd") } == ["/passwd.level1.json"])
        #expect(RemoteReference.refusal("clubs/x.level1.json", from: URL(string: "http://h/a/root.json")!) == nil)
        #expect(RemoteReference.refusal("../x.level1.json", from: URL(string: "http://h/a/root.json")!) == nil)  // outside-ok: a URL reference, not a file
        #expect(RemoteReference.refusal("https://other.example/x.json", from: URL(string: "http://h/a/root.json")!) == nil)
        #expect(RemoteReference.refusal("FILE:/etc/passwd", from: URL(string: "http://h/a/root.json")!) != nil)
    }

    @Test func sourcesListsTheCachedDocumentsAndWhetherTheLastImportUsedThem() throws {
        let tree = try Tree()
        let none = try tree.cli.run(["sources", "--format", "json"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [Any])?.isEmpty == true, "\(none.stdout)")
        #expect(!FileManager.default.fileExists(atPath: tree.database), "listing creates no database")
        #expect(try tree.importing().status == 0)
        let table = try tree.cli.run(["sources"])
        #expect(table.status == 0)
        for path in Tree.paths { #expect(table.stdout.contains(tree.server.url(path).absoluteString)) }
        #expect(table.stdout.contains("ETag") && table.stdout.contains("Last-Modified") && table.stdout.contains("used"))

        // Importing another tree (a single file) leaves the first tree's documents unused.
        let single = tree.server.url("/museums.level1.json").absoluteString
        #expect(try tree.cli.run(["import", single]).status == 0)
        let json = try tree.cli.run(["sources", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == Tree.paths.count)
        for row in rows {
            let url = try #require(row["url"] as? String)
            #expect(row["usedByLastImport"] as? Bool == (url == single), "\(url)")
            #expect((row["etag"] as? String)?.hasPrefix("\"") == true && row["lastModified"] as? String != nil)
            #expect(row["status"] as? Int == 200 && (row["size"] as? Int ?? 0) > 0)
            for key in ["fetchedAt", "checkedAt"] {
                let text = try #require(row[key] as? String)
                #expect(text.hasSuffix("Z") && RFC3339.date(text) != nil, "\(key): \(text)")
            }
        }
        let stats = try tree.cli.run(["stats", "--format", "json"])
        let statistics = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let importedAt = try #require(statistics["importedAt"] as? String, "importedAt is a string: \(stats.stdout)")
        #expect(importedAt.hasSuffix("Z") && RFC3339.date(importedAt) != nil)
    }
}
