import Foundation
@testable import HubGeoDatabase
@testable import HubGeoGeocoding
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The forward search (`/search`) with real libcurl against the loopback stand-in, which replays
/// answers recorded from the integration tier's real Nominatim 5.3.3 (`record_search.py`):
/// candidates, the town rules shared with the reverse lookups, the cache, the interval, no
/// network, and hostile answers.
@Suite("Place search")
struct PlaceSearchTests {
    typealias Response = LoopbackServer.Response

    static func body(_ name: String) throws -> Data {
        try Data(contentsOf: NominatimStandIn.standin.appendingPathComponent(name))
    }

    @Test("Request: /search with q, jsonv2, addressdetails, extratags, limit, email; identifying User-Agent; no language means local names")
    func requestShape() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let answer = try client.search(PlaceSearch(query: "  Fotomuseum   Den Haag "))
        #expect(answer.candidates.count == 1)
        let request = try #require(try server.requests().first)
        #expect(request.path == "/search")
        let query = queryParameters(request)
        #expect(query["q"] == "Fotomuseum Den Haag")
        #expect(query["format"] == "jsonv2")
        #expect(query["addressdetails"] == "1")
        #expect(query["extratags"] == "1")
        #expect(query["limit"] == "5")
        #expect(query["accept-language"] == nil)
        #expect(query["viewbox"] == nil)
        #expect(query["email"] == "tests@example.org")
        #expect(request.headers["user-agent"] == "hubgeo/\(HubGeoVersion.current) (tests@example.org)")
    }

    @Test("A museum: name, kind, town and country from the address, position, OSM type and id, website and wikipedia")
    func museumCandidate() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let local = try #require(try client.search(PlaceSearch(query: "Fotomuseum Den Haag")).candidates.first)
        #expect(local == PlaceCandidate(
            name: "Fotomuseum Den Haag", kind: "museum", category: "tourism", type: "museum", town: "Den Haag", townKey: "city",
            country: "Nederland", countryCode: "nl", coordinates: GeoPoint(latitude: 52.0896, longitude: 4.2803),
            osmType: "node", osmID: 68, website: "https://www.fotomuseumdenhaag.nl/", wikipedia: "nl:Fotomuseum Den Haag",
            displayName: "Fotomuseum Den Haag, Lange Voorhout, Den Haag, Nederland"))
        #expect(local.openStreetMapURL == "https://www.openstreetmap.org/node/68")
        let english = try #require(try client.search(PlaceSearch(query: "Fotomuseum Den Haag", language: "en")).candidates.first)
        #expect(english.town == "The Hague" && english.country == "Netherlands")
        #expect(queryParameters(try #require(try server.requests().last))["accept-language"] == "en")
    }

    @Test("Kinds: a village is a village, a city's boundary a city, a museum a museum; nothing found is no candidate")
    func kinds() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        func first(_ query: String, _ language: String? = nil) throws -> PlaceCandidate {
            try #require(try client.search(PlaceSearch(query: query, language: language)).candidates.first)
        }
        let asten = try first("Asten")
        #expect(asten.kind == "village" && asten.town == "Asten" && asten.townKey == "village" && asten.website == nil)
        let antwerp = try first("Antwerpen", "en")
        #expect(antwerp.kind == "city" && antwerp.category == "boundary" && antwerp.osmType == "relation" && antwerp.town == "Antwerp")
        let museum = try first("Museum Klok & Peel")
        #expect(museum.kind == "museum" && museum.town == "Asten" && museum.townKey == "village")
        #expect(try client.search(PlaceSearch(query: "Fotokring Beeldhoek Asten")).candidates.isEmpty)
    }

    @Test("The town is read by the reverse lookups' rule: the first of city, town, village, municipality, hamlet, suburb")
    func townRule() throws {
        func answer(_ address: String) -> Data {
            Data("""
                [{"osm_type":"node","osm_id":1,"lat":"51.5","lon":"5.5","category":"amenity","type":"arts_centre",
                  "addresstype":"amenity","name":"Atelier","address":{\(address),"country":"Nederland","country_code":"NL"}}]
                """.utf8)
        }
        for (address, town, key) in [
            (#""suburb":"Woensel","city":"Eindhoven","municipality":"Eindhoven""#, "Eindhoven", "city"),
            (#""hamlet":"Heikant","municipality":"Sint-Michielsgestel""#, "Sint-Michielsgestel", "municipality"),
            (#""village":"","hamlet":"Heikant""#, "Heikant", "hamlet"),
            (#""road":"Kerkstraat""#, nil, nil),
        ] {
            let body = answer(address)
            let candidate = try #require(try NominatimSearchParser.parse(body).first)
            #expect(candidate.town == town && candidate.townKey == key, "\(address)")
            #expect(candidate.countryCode == "nl" && candidate.kind == "arts_centre")
            // The same object as a reverse answer gives the same town: one rule for both.
            let object = String(decoding: body, as: UTF8.self).dropFirst().dropLast()
            let reverse = try NominatimResponseParser.parse(Data(object.utf8))
            #expect(reverse.town == candidate.town && reverse.townKey == candidate.townKey)
        }
    }

    @Test("--near becomes a viewbox of about 25 km each way: SearchBoxes' box, the point's part at ±180°, all longitudes at a pole")
    func viewbox() throws {
        let asten = PlaceSearch(query: "Asten", near: GeoPoint(latitude: 51.4037, longitude: 5.7486))
        let box = try #require(asten.viewbox).split(separator: ",").compactMap { Double($0) }
        #expect(box.count == 4)
        #expect(abs(box[1] - 51.4037 - 0.2261) < 0.0005 && abs(box[3] - 51.4037 + 0.2261) < 0.0005, "\(box)")
        #expect(box[0] < 5.7486 - 0.35 && box[2] > 5.7486 + 0.35 && box[2] - box[0] < 0.75)
        let pole = PlaceSearch(query: "x", near: GeoPoint(latitude: 89.9, longitude: 179.9)).viewbox
        #expect(pole == "-180,90,180,89.6738895")
        // Across ±180°: the part east of -180 that holds the point, not the whole world's width.
        let fiji = try #require(PlaceSearch(query: "x", near: GeoPoint(latitude: -17.8, longitude: -179.9)).viewbox)
            .split(separator: ",").compactMap { Double($0) }
        #expect(fiji.count == 4 && fiji[0] == -180 && abs(fiji[2] - (-179.9 + 0.2375)) < 0.001, "\(fiji)")
        #expect(PlaceSearch(query: " ").problem == "the query is empty")
        #expect(PlaceSearch(query: "x", limit: 41).problem != nil && PlaceSearch(query: "x", limit: 0).problem != nil)
    }

    @Test("Cache: the same search again sends nothing; another language, limit or bias is another search")
    func cache() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let configuration = NominatimStandIn.configuration(server)
        let locator = PlaceLocator(store: store, client: NominatimClient(configuration: configuration), configuration: configuration)
        let first = try #require(try locator.search(PlaceSearch(query: "Asten")))
        #expect(!first.fromCache && first.candidates.first?.town == "Asten")
        let again = try #require(try locator.search(PlaceSearch(query: " Asten ")))
        #expect(again.fromCache && again.candidates == first.candidates)
        #expect(try server.requests().count == 1)
        _ = try locator.search(PlaceSearch(query: "Asten", language: "en"))
        _ = try locator.search(PlaceSearch(query: "Asten", limit: 1))
        _ = try locator.search(PlaceSearch(query: "Asten", near: GeoPoint(latitude: 51.4, longitude: 5.7)))
        #expect(try server.requests().count == 4)
        #expect(queryParameters(try #require(try server.requests().last))["viewbox"] != nil)
        // A second locator on the same database (a later run) answers from the cache; offline too.
        let offline = PlaceLocator(store: store, client: nil, configuration: configuration)
        #expect(try offline.search(PlaceSearch(query: "Asten", language: "en"))?.candidates.first?.town == "Asten")
        #expect(try offline.search(PlaceSearch(query: "Berlicum")) == nil)
        // refresh asks again and replaces the answer.
        #expect(try locator.search(PlaceSearch(query: "Asten"), refresh: true)?.fromCache == false)
        #expect(try server.requests().count == 5)
    }

    @Test("A failure is never cached: the next run asks again")
    func failureNotCached() throws {
        let server = try NominatimStandIn.start(searchFaults: [Response(status: 500, times: 3)])
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let configuration = NominatimStandIn.configuration(server, maxRetries: 2)
        let locator = PlaceLocator(store: store, client: NominatimClient(configuration: configuration), configuration: configuration)
        #expect(throws: GeocodeError.self) { try locator.search(PlaceSearch(query: "Asten")) }
        #expect(try server.requests().count == 3)
        #expect(try locator.search(PlaceSearch(query: "Asten"))?.fromCache == false)
        #expect(try server.requests().count == 4)
    }

    @Test("Never faster than the interval, reverse lookups and searches alike, on one connection")
    func interval() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, interval: 0.2))
        _ = try client.search(PlaceSearch(query: "Asten"))
        _ = try client.reverse(NominatimStandIn.places["eindhoven"]!, language: "en")
        _ = try client.search(PlaceSearch(query: "Berlicum"))
        _ = try client.search(PlaceSearch(query: "Den Haag"))
        let requests = try server.requests()
        #expect(requests.count == 4)
        for gap in arrivalGaps(requests) { #expect(gap >= 0.2 * 0.95, "gap \(gap)") }
        #expect(Set(requests.map(\.clientPort)).count == 1)
    }

    @Test("The request budget counts searches too")
    func budget() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        client.requestBudget = 1
        _ = try client.search(PlaceSearch(query: "Asten"))
        #expect(throws: GeocodeError.requestBudgetExhausted(1)) { try client.search(PlaceSearch(query: "Berlicum")) }
        #expect(try server.requests().count == 1)
    }

    @Test("No network: a clear error after the retries, nothing cached")
    func offline() throws {
        let closed = try RefusingPort()
        let configuration = NominatimConfiguration(
            endpoint: URL(string: "http://127.0.0.1:\(closed.port)")!, contact: "tests@example.org", minimumInterval: 0,
            maxRetries: 1, backoffBase: 0.01, backoffCap: 0.02, maxRetryAfter: 1, connectTimeout: 1, totalTimeout: 2)
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let client = NominatimClient(configuration: configuration)
        let locator = PlaceLocator(store: store, client: client, configuration: configuration)
        let error = #expect(throws: GeocodeError.self) { try locator.search(PlaceSearch(query: "Asten")) }
        guard case .network = error else { Issue.record("expected a network error, got \(String(describing: error))"); return }
        #expect(error?.localizedDescription.contains("127.0.0.1:\(closed.port)") == true, "\(String(describing: error?.localizedDescription))")
        #expect(client.requestCount == 2)
        #expect(try locator.search(PlaceSearch(query: "Asten"), offline: true) == nil)
        #expect(client.requestCount == 2)
    }

    @Test("Hostile answers: non-JSON, an object, a huge body, odd elements are errors or skipped, never a crash")
    func hostileBodies() throws {
        let huge = "[" + String(repeating: #"{"lat":"1","lon":"1","address":{}},"#, count: 80_000) + "{}]"
        let server = try NominatimStandIn.start(searchFaults: [
            Response(status: 200, headers: ["Content-Type": "text/html"], body: "<html>maintenance</html>", when: ["q": "html"]),
            Response(status: 200, body: #"{"error":"Nothing"}"#, when: ["q": "object"]),
            Response(status: 200, body: huge, when: ["q": "huge"]),
            Response(status: 200, body: #"[1, "x", {"lat":"x","lon":"1","address":{}}, {"lat":"95","lon":"1","address":{}}, {"lat":"1","lon":"1"}]"#,
                     when: ["q": "odd"]),
        ])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        for query in ["html", "object", "huge"] {
            let error = #expect(throws: GeocodeError.self) { try client.search(PlaceSearch(query: query)) }
            switch error {
            case .invalidResponse?, .network?: break
            default: Issue.record("\(query): expected invalidResponse or a refused body, got \(String(describing: error))")
            }
        }
        #expect(try client.search(PlaceSearch(query: "odd")).candidates.isEmpty)
    }

    @Test("Names with control characters, ##[ and :: are kept exactly as answered (the CLI escapes them)")
    func hostileNames() throws {
        let name = "::error::Fake\u{1B}[31m ##[add-mask]Museum\nline"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [[
            "osm_type": "node", "osm_id": 7, "lat": "51.4", "lon": "5.7", "category": "tourism", "type": "museum",
            "name": name, "address": ["village": "##[stop-commands]x", "country": "Nederland", "country_code": "nl"],
            "extratags": ["website": "https://example.org/\u{7}", "wikipedia": "nl:::x"],
        ]]), as: UTF8.self)
        let candidate = try #require(try NominatimSearchParser.parse(Data(json.utf8)).first)
        #expect(candidate.name == name && candidate.town == "##[stop-commands]x")
        #expect(candidate.website == "https://example.org/\u{7}" && candidate.wikipedia == "nl:::x")
    }
}
