import Foundation
@testable import HubGeoDatabase
@testable import HubGeoGeocoding
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// `validate --geocode` suggests coordinates for `coordinates-zero`, `town-mismatch` and
/// `town-nowhere`, from a forward search of the organization's name and town, else its town,
/// against the Nominatim stand-in (searches recorded from the integration tier's real Nominatim).
@Suite("validate --geocode: suggested coordinates")
struct CoordinateSuggestionTests {
    let home: TemporaryDirectory

    init() throws {
        home = try TestPaths.temporaryDirectory()
    }

    static let asten = GeoPoint(latitude: 51.4037, longitude: 5.7486)
    static let denHaag = GeoPoint(latitude: 52.0799, longitude: 4.3113)

    /// A club of Asten at (0, 0), a Den Haag museum whose name the search finds, placed in
    /// Amsterdam, and a club whose coordinates are right.
    func writeTree() throws -> URL {
        try home.write("clubs.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Asten", fullName: "Fotokring Beeldhoek", nickName: "fkBeeldhoek", latitude: 0, longitude: 0),
            .init(town: "Den Haag", fullName: "Fotomuseum Den Haag", nickName: "FM", latitude: 52.3731, longitude: 4.8922),
            .init(town: "Eindhoven", fullName: "Club ehv", nickName: "ehv", latitude: 51.42398, longitude: 5.4501),
        ]))
    }

    func validate(_ tree: URL, server: LoopbackServer, store: OrganizationStore, online: Bool = true) -> ValidationReport {
        let configuration = NominatimStandIn.configuration(server)
        let check = TownCheck(store: store, client: online ? NominatimClient(configuration: configuration) : nil, configuration: configuration)
        return Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(tree)], townCheck: check)
    }

    @Test("(0, 0) and a wrong town get the searched place's coordinates and the distance; cached for the next run and offline")
    func suggestions() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        let tree = try writeTree()
        let report = validate(tree, server: server, store: store)
        let zero = try #require(report.diagnostics.first { $0.rule == .coordinatesZero })
        let suggestion = try #require(zero.suggestion)
        #expect(GeoPoint(latitude: suggestion.latitude, longitude: suggestion.longitude) == Self.asten)
        #expect(suggestion.query == "Asten" && suggestion.place == "Asten (village)" && suggestion.coordinatesPath == "clubs[0].coordinates")
        let fromZero = try store.geodesicDistance(from: GeoPoint(latitude: 0, longitude: 0), to: Self.asten)
        #expect(abs(suggestion.distanceMeters - fromZero) < 1)
        #expect(zero.message.hasSuffix("; suggested coordinates: 51.4037, 5.7486 (Asten (village), found by searching \"Asten\"; "
            + "\(Int((fromZero / 1000).rounded())) km from the current pair)"), "\(zero.message)")
        // Where the coordinates object is, for a fix that replaces it.
        #expect(suggestion.line != nil && suggestion.endLine != nil && suggestion.column != nil)

        // The museum: its name and town are found as such (no fallback to the town).
        let museum = try #require(report.diagnostics.first { $0.rule == .townMismatch && $0.jsonPath == "clubs[1].idPlus.town" })
        let found = try #require(museum.suggestion)
        #expect(found.query == "Fotomuseum Den Haag" && found.place == "Fotomuseum Den Haag (museum)")
        #expect(found.latitude == 52.0896 && found.longitude == 4.2803)
        // The club at (0, 0) is also a town warning in the stand-in (which answers Eindhoven there): the same suggestion.
        #expect(report.diagnostics.filter { $0.suggestion != nil }.count == 3, "\(report.diagnostics.map(\.description))")
        #expect(!report.diagnostics.contains { $0.jsonPath.hasPrefix("clubs[2]") })

        // One request per distinct search: "Fotokring Beeldhoek, Asten" (nothing), "Asten", "Fotomuseum Den Haag" (it names its town).
        let searches = try server.requests().filter { $0.path == "/search" }
        #expect(searches.compactMap { queryParameters($0)["q"] }.sorted()
                == ["Asten", "Fotokring Beeldhoek, Asten", "Fotomuseum Den Haag"])
        #expect(searches.allSatisfy { queryParameters($0)["limit"] == "1" && queryParameters($0)["accept-language"] == nil })
        #expect(report.townCheck?.suggested == 3)

        let again = validate(tree, server: server, store: store)
        #expect(again.diagnostics == report.diagnostics && again.townCheck?.requests == 0)
        let offline = validate(tree, server: server, store: store, online: false)
        #expect(offline.diagnostics == report.diagnostics)
        #expect(try server.requests().count == 3 + 3)
    }

    @Test("The request budget holds for the searches too: once it is used up, suggestions come from the cache only")
    func budget() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        let configuration = NominatimStandIn.configuration(server)
        let client = NominatimClient(configuration: configuration)
        client.requestBudget = 4  // the 3 reverse lookups and one search
        let check = TownCheck(store: store, client: client, configuration: configuration)
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(try writeTree())], townCheck: check)
        #expect(try server.requests().count == 4)
        #expect(report.townCheck?.stoppedBy?.contains("--max-requests") == true, "\(String(describing: report.townCheck))")
        #expect(!report.diagnostics.contains { $0.suggestion != nil })
    }

    static func cli(_ home: TemporaryDirectory, _ server: LoopbackServer) -> CLIRunner {
        NominatimStandIn.runner(server, in: home)
    }

    @Test("Without --geocode nothing is fetched and nothing suggested")
    func withoutGeocode() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let tree = try writeTree()
        let run = try Self.cli(home, server).run(["validate", tree.path, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["rule"] as? String == "coordinates-zero" })
        #expect(!diagnostics.contains { $0["suggestion"] != nil } && !run.stdout.contains("suggested"))
        #expect(try server.requests().isEmpty)
    }

    @Test("The text line, the JSON field, and SARIF fixes that replace the coordinates object (valid SARIF 2.1.0, read by sarif-tools)")
    func outputs() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let tree = try writeTree()
        let runner = Self.cli(home, server)
        let text = try runner.run(["validate", "--geocode", tree.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("clubs[0].coordinates: warning: coordinates (0, 0) lie in the Gulf of Guinea: probably never filled in; "
            + "suggested coordinates: 51.4037, 5.7486 (Asten (village), found by searching \"Asten\"; "), "\(text.stdout)")
        #expect(text.stdout.contains(", 3 coordinates suggested"), "\(text.stdout)")

        let json = try runner.run(["validate", "--geocode", tree.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let zero = try #require((object["diagnostics"] as? [[String: Any]])?.first { $0["rule"] as? String == "coordinates-zero" })
        let suggestion = try #require(zero["suggestion"] as? [String: Any])
        #expect(suggestion["latitude"] as? Double == 51.4037 && suggestion["longitude"] as? Double == 5.7486)
        #expect(suggestion["query"] as? String == "Asten" && (suggestion["distanceMeters"] as? Double ?? 0) > 5_000_000)

        let sarif = try runner.run(["validate", "--geocode", tree.path, "--format", "sarif"])
        let file = home.url.appendingPathComponent("out.sarif")
        try Data(sarif.stdout.utf8).write(to: file)
        let schema = TestPaths.packageRoot.appendingPathComponent(".build/sarif-schema/sarif-2.1.0.json")
        let check = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"), ["--schemafile", schema.path, file.path])
        #expect(check.status == 0, "\(check.text)\(check.stderr)")
        let summary = try CommandRunner.run(try CITestSupport.pythonTool("sarif"), ["summary", file.path])
        #expect(summary.status == 0 && summary.text.contains("warning: "), "\(summary.text)\(summary.stderr)")

        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let result = try #require(results.first { $0["ruleId"] as? String == "coordinates-zero" })
        let fix = try #require((result["fixes"] as? [[String: Any]])?.first)
        let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        let region = try #require(replacement["deletedRegion"] as? [String: Int])
        let inserted = try #require((replacement["insertedContent"] as? [String: Any])?["text"] as? String)
        #expect(inserted == #""coordinates": { "latitude": 51.4037, "longitude": 5.7486 }"#)
        // Applying the replacement (columns in Unicode scalars) to the file's lines gives a file whose coordinates are the suggested ones.
        var lines = try String(contentsOf: tree, encoding: .utf8).components(separatedBy: "\n")
        let (startLine, startColumn, endLine, endColumn) = (region["startLine"]! - 1, region["startColumn"]! - 1, region["endLine"]! - 1, region["endColumn"]! - 1)
        let head = String(String.UnicodeScalarView(lines[startLine].unicodeScalars.prefix(startColumn)))
        let tail = String(String.UnicodeScalarView(lines[endLine].unicodeScalars.dropFirst(endColumn)))
        lines.replaceSubrange(startLine...endLine, with: [head + inserted + tail])
        let fixed = try JSONSerialization.jsonObject(with: Data(lines.joined(separator: "\n").utf8)) as? [String: Any]
        let coordinates = try #require(((fixed?["clubs"] as? [[String: Any]])?.first)?["coordinates"] as? [String: Double])
        #expect(coordinates == ["latitude": 51.4037, "longitude": 5.7486])
        #expect(results.filter { $0["fixes"] != nil }.count == 3)
    }
}
