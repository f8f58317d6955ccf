import Foundation
@testable import HubGeoDatabase
@testable import HubGeoGeocoding
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// `validate --geocode` against the Nominatim stand-in (real Nominatim 5.3.3 answers): declared
/// towns compared with the local names and cached translations of the place at the coordinates.
@Suite("validate --geocode: declared towns against geocoded places")
struct TownCheckTests {
    let home: TemporaryDirectory
    let places = NominatimStandIn.places

    init() throws {
        home = try TestPaths.temporaryDirectory()
    }

    private func club(_ town: String, _ nick: String, at point: GeoPoint) -> Level1Builder.Entry {
        .init(town: town, fullName: "Club \(nick)", nickName: nick, latitude: point.latitude, longitude: point.longitude)
    }

    /// A tree with good towns (local names, a village inside a municipality of another name,
    /// a bilingual city name, a translation among the city's name tags), then one at sea, one in
    /// the wrong town and one with latitude and longitude swapped: 8 distinct points.
    private func writeTree() throws -> URL {
        let amsterdam = places["amsterdam"]!
        return try home.write("root.level1.json", Level1Builder.level1(clubs: [
            club("Eindhoven", "ehv", at: places["eindhoven"]!),
            club("Berlicum", "berlicum", at: places["berlicum"]!),
            club("Sint-Michielsgestel", "gestel", at: places["berlicum"]!),
            club("Brussel", "brussel", at: places["brussel"]!),
            club("Den Haag", "haag", at: places["denhaag"]!),
            club("Waalre", "waalre", at: places["waalre"]!),
            club("Amsterdam", "adam", at: amsterdam),
            club("Brussels", "brussels", at: places["brussel"]!),
            club("Scheveningen", "sea", at: places["sea"]!),
            club("Waalre", "wrongtown", at: amsterdam),
            club("Amsterdam", "swapped", at: GeoPoint(latitude: amsterdam.longitude, longitude: amsterdam.latitude)),
        ]))
    }

    private func run(_ tree: URL, server: LoopbackServer?, store: OrganizationStore) -> (ValidationReport, [Diagnostic]) {
        let configuration = server.map { NominatimStandIn.configuration($0) }
            ?? NominatimConfiguration(endpoint: URL(string: "http://127.0.0.1:9")!, contact: "tests@example.org")
        let check = TownCheck(store: store, client: server.map { _ in NominatimClient(configuration: configuration) },
                              configuration: configuration)
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(tree)], townCheck: check)
        return (report, report.diagnostics.filter { $0.jsonPath.hasSuffix(".idPlus.town") })
    }

    private func message(_ diagnostics: [Diagnostic], _ index: Int) -> String? {
        diagnostics.first { $0.jsonPath == "clubs[\(index)].idPlus.town" }?.message
    }

    @Test func flagsTownsThatDoNotMatchThePlaceAndSaysHowFarTheyAre() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        let tree = try writeTree()
        let (report, towns) = run(tree, server: server, store: store)

        #expect(towns.map(\.jsonPath).sorted() == [10, 8, 9].map { "clubs[\($0)].idPlus.town" },
                "\(towns.map(\.description))")
        #expect(towns.allSatisfy { $0.severity == .warning && $0.file == tree.path && $0.line != nil })
        #expect(message(towns, 8)?.hasPrefix("coordinates (54.00000, 3.00000) point at no place Nominatim knows") == true)

        // The wrong town: Waalre is where another checked club is, as far as the two points are apart.
        let apart = try store.geodesicDistance(from: places["amsterdam"]!, to: places["waalre"]!) / 1000
        #expect(apart > 100 && apart < 200)
        let wrongTown = try #require(message(towns, 9))
        #expect(wrongTown.hasPrefix("town \"Waalre\" does not match the place at (52.37310, 4.89220): Amsterdam (city), Nederland"))
        #expect(wrongTown.hasSuffix(String(format: "; \"Waalre\" lies %.0f km away: swapped or mistyped coordinates?", apart)))
        // Swapped coordinates land elsewhere (the stand-in answers Eindhoven for unknown points).
        #expect(message(towns, 10)?.contains("\"Amsterdam\" lies") == true)

        let summary = try #require(report.townCheck)
        #expect(summary.checked == 11 && summary.unchecked == 0 && summary.points == 8)
        // 8 reverse lookups, and two searches (name and town, then the town) for each of the 3 flagged towns' suggestions.
        #expect(summary.requests == 14 && summary.cachedPoints == 0)
        let requests = try server.requests()
        #expect(requests.filter { $0.path == "/reverse" }.count == 8 && requests.count == 14)
        #expect(requests.allSatisfy { queryParameters($0)["accept-language"] == nil }, "asks for the local names")
    }

    @Test func aSecondRunAndAnOfflineRunUseTheCacheAndAgree() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        let tree = try writeTree()
        let (_, first) = run(tree, server: server, store: store)
        let (again, second) = run(tree, server: server, store: store)
        #expect(second == first)
        #expect(again.townCheck?.requests == 0 && again.townCheck?.cachedPoints == 8)
        #expect(try server.requests().count == 14)

        // Offline, against the same endpoint's cache: the same verdicts, no client at all.
        let check = TownCheck(store: store, client: nil, configuration: NominatimStandIn.configuration(server))
        let offline = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(tree)], townCheck: check)
        #expect(offline.diagnostics.filter { $0.jsonPath.hasSuffix(".idPlus.town") } == first)
        #expect(offline.townCheck?.checked == 11)
    }

    @Test func cachedTranslationsCountAsNamesOfThePlace() throws {
        // A server whose local answer carries no name tags, so that only the English answer
        // that `localize` cached knows "Brussels".
        let standin = NominatimStandIn.standin
        let local = try JSONSerialization.jsonObject(with: Data(contentsOf: standin.appendingPathComponent("brussel_local.json")))
        var stripped = try #require(local as? [String: Any])
        stripped["namedetails"] = nil
        let server = try LoopbackServer(script: ["/reverse": [
            .init(headers: ["Content-Type": "application/json"], bodyFile: standin.appendingPathComponent("brussel_en.json").path,
                  when: ["accept-language": "en"]),
            .init(headers: ["Content-Type": "application/json"],
                  body: String(decoding: try JSONSerialization.data(withJSONObject: stripped), as: UTF8.self), when: ["accept-language": ""]),
        ]])
        defer { server.stop() }
        let before = try home.write("before.level1.json", Level1Builder.level1(clubs: [club("Brussels", "brussels", at: places["brussel"]!)]))
        let (_, beforeLocalize) = run(before, server: server, store: try OrganizationStore(path: home.path("before.sqlite")))
        #expect(beforeLocalize.map(\.jsonPath) == ["clubs[0].idPlus.town"])

        let store = try NominatimStandIn.store(in: home, [("brussel", places["brussel"]!)])
        let configuration = NominatimStandIn.configuration(server)
        let localizer = Localizer(store: store, client: NominatimClient(configuration: configuration), configuration: configuration)
        _ = try localizer.run(.init(languages: ["en"]))
        let tree = try home.write("brussels.level1.json", Level1Builder.level1(clubs: [club("Brussels", "brussels", at: places["brussel"]!)]))
        let (report, towns) = run(tree, server: server, store: store)
        #expect(towns.isEmpty, "\(towns.map(\.description))")
        #expect(report.townCheck?.checked == 1)
    }

    @Test func anUnreachableServerLeavesTownsUncheckedAndSaysWhy() throws {
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        let port = try RefusingPort()
        let configuration = NominatimConfiguration(endpoint: URL(string: "http://127.0.0.1:\(port.port)")!, contact: "tests@example.org", minimumInterval: 0,
                                                   maxRetries: 0, connectTimeout: 1, totalTimeout: 2)
        let check = TownCheck(store: store, client: NominatimClient(configuration: configuration), configuration: configuration)
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(try writeTree())], townCheck: check)
        let summary = try #require(report.townCheck)
        #expect(summary.checked == 0 && summary.unchecked == 11)
        #expect(summary.requests == Localizer.unansweredPlacesBeforeStopping, "stops asking after a few unanswered places")
        #expect(summary.stoppedBy?.contains("Could not connect") == true, "\(summary.stoppedBy ?? "")")
        #expect(try store.geocodeCache.count() == 0, "failures are not cached")
        #expect(!report.diagnostics.contains { $0.jsonPath.hasSuffix(".idPlus.town") })
    }

    @Test func theCommandLineReportsTownWarningsAndTheCheckSummary() throws {
        let server = try NominatimStandIn.start()
        defer { server.stop() }
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let tree = try writeTree()
        let arguments = ["validate", "--geocode", tree.path, "--nominatim-url", server.baseURL.absoluteString, "--request-interval", "0"]
        let result = try cli.run(arguments)
        #expect(result.status == 0, "warnings only: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(tree.path):") && $0.contains("clubs[9].idPlus.town: warning: town \"Waalre\" does not match") })
        #expect(lines.last == "town check: 11 organizations at 8 points: 11 checked (14 requests, 0 points cached)")
        #expect(try cli.run(arguments + ["--strict"]).status == 1)

        let json = try cli.run(["validate", "--geocode", "--offline", "--format", "json", tree.path, "--nominatim-url", server.baseURL.absoluteString])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["townCheck"] as? [String: Any])
        #expect(summary["checked"] as? Int == 11 && summary["requests"] as? Int == 0)
        #expect(try server.requests().count == 14, "the --strict and --offline runs are answered from the cache")

        #expect(try cli.run(["validate", "--offline", tree.path]).status == 64)
        let noContact = try cli.run(["validate", "--geocode", tree.path])
        #expect(noContact.status == 1 && noContact.stderr.contains("contact"))
    }

    /// Seen against a real Nominatim: on land far from any place the answer is the country itself
    /// (display name "Austria"), which the message used to show twice ("Austria, Austria").
    @Test func aPlaceWithoutALocalityNamesTheCountryOnce() throws {
        let body = try Data(contentsOf: NominatimStandIn.samples.appendingPathComponent("rev_nowhere_land_z10.json"))
        let countryOnly = try NominatimResponseParser.parse(body)
        #expect(countryOnly.displayName == "Austria" && countryOnly.country == "Austria")
        #expect(TownCheck.place(from: [countryOnly], describing: countryOnly)?.description == "no town, Austria")

        var road = countryOnly
        road.addressType = "road"
        road.displayName = "Bergweg, Austria"
        road.address["road"] = "Bergweg"
        #expect(TownCheck.place(from: [road], describing: road)?.description == "Bergweg, Austria")
    }

    @Test func matchingIgnoresCaseAccentsSpacesAndPunctuation() {
        #expect(TownCheck.key("'s-Hertogenbosch") == TownCheck.key("S Hertogenbosch"))
        #expect(TownCheck.key("Liège") == TownCheck.key("LIEGE"))
        #expect(TownCheck.key("Sint-Michielsgestel") == TownCheck.key("Sint Michielsgestel"))
        #expect(TownCheck.key("Waalre") != TownCheck.key("Waalwijk"))
    }
}
