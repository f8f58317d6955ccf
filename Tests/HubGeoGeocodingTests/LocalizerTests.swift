import Foundation
@testable import HubGeoDatabase
@testable import HubGeoGeocoding
@testable import HubGeoImport
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The localize batch against the stand-in: request economy (answers equal to asking per
/// language), cache hits, invalidation, offline, resume and faults.
@Suite("Localizer")
struct LocalizerTests {
    typealias Response = LoopbackServer.Response
    static let placeNames = ["amsterdam", "berlicum", "brussel", "denhaag", "eindhoven", "waalre", "sea"]

    /// One club per sample place, plus a second club sharing Eindhoven's coordinates.
    static func clubs() -> [(String, GeoPoint)] {
        placeNames.map { ($0, NominatimStandIn.places[$0]!) } + [("eindhoven2", NominatimStandIn.places["eindhoven"]!)]
    }

    static func localizer(_ store: OrganizationStore, _ server: LoopbackServer, budget: Int? = nil) -> (Localizer, NominatimClient) {
        let configuration = NominatimStandIn.configuration(server)
        let client = NominatimClient(configuration: configuration)
        client.requestBudget = budget
        return (Localizer(store: store, client: client, configuration: configuration), client)
    }

    /// The answers the stand-in's test configuration caches, in `language`.
    static func source(_ server: LoopbackServer, _ language: String) -> LocalizationSource {
        LocalizationSource(language: language, configuration: NominatimStandIn.configuration(server))
    }

    @Test("Economy: one request per point plus what names and countries need; answers equal per-language requests")
    func economyAndEquality() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, Self.clubs())
        let server = try NominatimStandIn.start()
        let (localizer, _) = Self.localizer(store, server)
        let languages = ["en", "nl", "de"]
        let summary = try localizer.run(.init(languages: languages))
        let p = summary.progress
        #expect(summary.isComplete)
        #expect(p.organizations == 8 && p.total == 7)
        // In coordinate order: brussel 2 (its answer, then Belgium's names at zoom 3), waalre 3 and
        // berlicum 3 (no namedetails in the stand-in: every language asked; waalre's answers name
        // the Netherlands in nl and de), eindhoven, denhaag, amsterdam 1 each, sea 1 (no-result for all).
        #expect(p.requests == 12, "requests \(p.requests)")
        #expect(p.fetched == 11 && p.derived == 10 && p.cacheHits == 0)
        #expect(p.noResult == 3)
        let requests = try server.requests()
        #expect(requests.count == 12)
        #expect(requests.filter { queryParameters($0)["zoom"] == "3" }.map { queryParameters($0)["lat"] } == ["50.8466"],
                "one zoom-3 request, for Belgium")

        let configuration = NominatimStandIn.configuration(server)
        for place in Self.placeNames {
            for language in languages {
                let entry = try #require(try store.geocodeCache.entry(GeocodeCoordinate(NominatimStandIn.places[place]!), language: language,
                                                                 endpoint: configuration.endpointKey, zoom: configuration.zoom))
                let asked = try NominatimStandIn.answer(place, language)
                #expect(entry.status == asked.status, "\(place) \(language)")
                #expect(entry.town == asked.town, "\(place) \(language)")
                #expect(entry.townKey == asked.townKey, "\(place) \(language)")
                #expect(entry.country == asked.country, "\(place) \(language)")
            }
        }
        let berlicum = try #require(try store.cachedPlace(at: NominatimStandIn.places["berlicum"]!, source: Self.source(server, "en")))
        #expect(berlicum == LocalizedPlace(language: "en", town: "Berlicum", country: "Netherlands"))
        let brussel = try #require(try store.cachedPlace(at: NominatimStandIn.places["brussel"]!, source: Self.source(server, "de")))
        #expect(brussel == LocalizedPlace(language: "de", town: "Brüssel", country: "Belgien"))

        // Second run: everything from the cache, zero requests.
        let (again, _) = Self.localizer(store, server)
        let second = try again.run(.init(languages: languages))
        #expect(second.progress.requests == 0 && second.progress.cacheHits == 21)
        #expect(try server.requests().count == 12)

        // Queries carry the cached place for the asked language, never fetching.
        let matches = try store.search("Club", filter: OrganizationFilter(localization: Self.source(server, "nl")))
        #expect(matches.first { $0.organization.nickName == "brussel" }?.localized?.town == "Brussel")
        // "Unable to geocode": no place at all, so no country; the town stays the Level 1 one.
        #expect(matches.first { $0.organization.nickName == "sea" }?.localized
                == LocalizedPlace(language: "nl", town: "Level1 sea", country: nil, townSource: .level1))
        #expect(matches.first { $0.organization.nickName == "brussel" }?.localized?.townSource == .nominatim)
        let none = try store.search("Club", filter: OrganizationFilter(localization: Self.source(server, "ja")))
        #expect(none.allSatisfy { $0.localized == nil })
    }

    /// Every language of `place` cached as the stand-in answers a request in that language.
    static func expectAnswersEqualRequests(_ store: OrganizationStore, _ server: LoopbackServer, place: String,
                                           languages: [String]) throws {
        let configuration = NominatimStandIn.configuration(server)
        for language in languages {
            let entry = try #require(try store.geocodeCache.entry(GeocodeCoordinate(NominatimStandIn.places[place]!), language: language,
                                                                  endpoint: configuration.endpointKey, zoom: configuration.zoom))
            let asked = try NominatimStandIn.answer(place, language)
            #expect(entry.status == asked.status && entry.town == asked.town && entry.townKey == asked.townKey
                    && entry.country == asked.country,
                    "\(place) \(language): \(entry.town ?? "nil") (\(entry.townKey ?? "nil")), \(entry.country ?? "nil"); asked: \(asked.town ?? "nil"), \(asked.country ?? "nil")")
        }
    }

    @Test("A point in a suburb, five languages: its answer, the city at zoom 10, the country at zoom 3; equal to asking each")
    func suburbFiveLanguages() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("noord", NominatimStandIn.places["noord"]!)])
        let server = try NominatimStandIn.start()
        let languages = ["en", "nl", "de", "fr", "ja"]
        let summary = try Self.localizer(store, server).0.run(.init(languages: languages))
        #expect(summary.isComplete)
        #expect(summary.progress.requests == 3 && summary.progress.fetched == 1 && summary.progress.derived == 4)
        let requests = try server.requests().map(queryParameters)
        #expect(requests.map { $0["zoom"] } == ["14", "10", "3"])
        #expect(requests.allSatisfy { $0["accept-language"] == "en" && $0["namedetails"] == "1" })
        try Self.expectAnswersEqualRequests(store, server, place: "noord", languages: languages)
        // The suburb is not the town: the names come from the city's own answer.
        #expect(try store.cachedPlace(at: NominatimStandIn.places["noord"]!, source: Self.source(server, "ja"))
                == LocalizedPlace(language: "ja", town: "アムステルダム", country: "オランダ"))

        // Later runs in other languages use the stored names of the city and of the country.
        let more = try Self.localizer(store, server).0.run(.init(languages: ["es", "it"]))
        #expect(more.isComplete && more.progress.requests == 0 && more.progress.derived == 2)
        let spanish = try #require(try store.cachedPlace(at: NominatimStandIn.places["noord"]!, source: Self.source(server, "es")))
        #expect(spanish == LocalizedPlace(language: "es", town: "Amsterdam", country: "Países Bajos"))
    }

    @Test("Two languages: the second is asked, no zoom-10 or zoom-3 request (they would not save one)")
    func suburbTwoLanguages() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("noord", NominatimStandIn.places["noord"]!)])
        let server = try NominatimStandIn.start()
        let summary = try Self.localizer(store, server).0.run(.init(languages: ["nl", "en"]))
        #expect(summary.isComplete && summary.progress.requests == 2 && summary.progress.fetched == 2)
        #expect(try server.requests().map { queryParameters($0)["zoom"] } == ["14", "14"])
        try Self.expectAnswersEqualRequests(store, server, place: "noord", languages: ["nl", "en"])
    }

    @Test("A zoom-10 answer that is not the point's town is not used: every language is asked")
    func anotherTownAtZoom10IsNotUsed() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("noord", NominatimStandIn.places["noord"]!)])
        // At zoom 10 the server names another city (Brussel): its names must not become Amsterdam's.
        let server = try NominatimStandIn.start(faults: [
            Response(status: 200, headers: ["Content-Type": "application/json"],
                     bodyFile: NominatimStandIn.standin.appendingPathComponent("brussel_en.json").path,
                     when: ["lat": "52.404", "zoom": "10"]),
        ])
        let languages = ["en", "nl", "de", "fr", "ja"]
        let summary = try Self.localizer(store, server).0.run(.init(languages: languages))
        #expect(summary.isComplete)
        #expect(summary.progress.requests == 6 && summary.progress.fetched == 5 && summary.progress.derived == 0)
        try Self.expectAnswersEqualRequests(store, server, place: "noord", languages: languages)
    }

    @Test("A failed zoom-10 request caches nothing for the languages left; the next run completes them")
    func failedTownRequest() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("noord", NominatimStandIn.places["noord"]!)])
        // The zoom-10 request fails with 500 on its first try and both retries, then answers.
        let server = try NominatimStandIn.start(faults: [Response(status: 500, when: ["lat": "52.404", "zoom": "10"], times: 3)])
        let languages = ["en", "nl", "de", "fr", "ja"]
        let first = try Self.localizer(store, server).0.run(.init(languages: languages))
        #expect(!first.isComplete && first.stoppedBy == nil && first.progress.fetched == 1 && first.progress.failures == 4)
        #expect(first.progress.requests == 4)
        #expect(try store.geocodeCache.count() == 1, "only the answer that came")
        let endpoint = NominatimStandIn.configuration(server).endpointKey
        #expect(try store.geocodeCache.townNamesAnswer(GeocodeCoordinate(NominatimStandIn.places["noord"]!), endpoint: endpoint, zoom: 10) == nil)

        let second = try Self.localizer(store, server).0.run(.init(languages: languages))
        #expect(second.isComplete && second.progress.cacheHits == 1 && second.progress.derived == 4)
        #expect(second.progress.requests == 2, "the city at zoom 10 and the country at zoom 3")
        try Self.expectAnswersEqualRequests(store, server, place: "noord", languages: languages)
    }

    @Test("A zoom-3 answer of another country is not used")
    func anotherCountryAtZoom3IsNotUsed() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("eindhoven", NominatimStandIn.places["eindhoven"]!)])
        let server = try NominatimStandIn.start(faults: [
            Response(status: 200, headers: ["Content-Type": "application/json"],
                     bodyFile: NominatimStandIn.standin.appendingPathComponent("country_be_en.json").path,
                     when: ["zoom": "3"]),
        ])
        let languages = ["en", "nl", "de"]
        let summary = try Self.localizer(store, server).0.run(.init(languages: languages))
        #expect(summary.isComplete && summary.progress.requests == 4 && summary.progress.fetched == 3)
        try Self.expectAnswersEqualRequests(store, server, place: "eindhoven", languages: languages)
        let stored = try store.geocodeCache.countryNamesAnswer(code: "be", endpoint: NominatimStandIn.configuration(server).endpointKey)
        #expect(stored == nil, "the wrong country's answer is not kept")
    }

    @Test("A changed coordinate is geocoded again; unchanged ones never")
    func invalidation() throws {
        let directory = try TestPaths.temporaryDirectory()
        var clubs = [("eindhoven", NominatimStandIn.places["eindhoven"]!), ("amsterdam", NominatimStandIn.places["amsterdam"]!)]
        let store = try NominatimStandIn.store(in: directory, clubs)
        let server = try NominatimStandIn.start()
        _ = try Self.localizer(store, server).0.run(.init(languages: ["en"]))
        #expect(try server.requests().count == 2)

        clubs[1].1 = NominatimStandIn.places["nowhere"]!   // the club moved (an edit or a Level 2 override)
        try store.importData(NominatimStandIn.data(clubs))
        let summary = try Self.localizer(store, server).0.run(.init(languages: ["en"]))
        #expect(summary.progress.requests == 1 && summary.progress.cacheHits == 1)
        let requests = try server.requests()
        #expect(requests.count == 3)
        #expect(queryParameters(requests[2])["lat"] == "47")
        let moved = try #require(try store.search("amsterdam", filter: OrganizationFilter(localization: Self.source(server, "en"))).first)
        // Nominatim knows only the country there: the town stays the Level 1 one.
        #expect(moved.localized == LocalizedPlace(language: "en", town: "Level1 amsterdam", country: "Austria", townSource: .level1))
    }

    @Test("--offline with an empty cache: no network, nothing localized, Level 1 town stays")
    func offlineEmptyCache() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, Self.clubs())
        let server = try NominatimStandIn.start()
        let configuration = NominatimStandIn.configuration(server)
        let summary = try Localizer(store: store, client: nil, configuration: configuration).run(.init(languages: ["en", "nl"], offline: true))
        #expect(summary.progress.requests == 0 && summary.progress.missingOffline == 14 && summary.progress.cacheHits == 0)
        #expect(try server.requests().isEmpty)
        #expect(try store.geocodeCache.count() == 0)
        #expect(try store.all(filter: OrganizationFilter(localization: Self.source(server, "en"))).allSatisfy { $0.localized == nil })
    }

    @Test("No network: the batch stops after a few places in a row get no response, caching nothing")
    func unreachableServerStopsTheBatch() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, Self.clubs())
        let closed = try RefusingPort()
        let configuration = NominatimConfiguration(
            endpoint: URL(string: "http://127.0.0.1:\(closed.port)")!, contact: "tests@example.org", minimumInterval: 0,
            maxRetries: 1, backoffBase: 0.01, backoffCap: 0.02, maxRetryAfter: 1, connectTimeout: 1, totalTimeout: 2)
        let client = NominatimClient(configuration: configuration)
        let summary = try Localizer(store: store, client: client, configuration: configuration).run(.init(languages: ["en", "nl"]))
        guard case .unreachable(_, let places)? = summary.stoppedBy else {
            Issue.record("expected the batch to stop as unreachable, got \(String(describing: summary.stoppedBy))")
            return
        }
        #expect(places == Localizer.unansweredPlacesBeforeStopping)
        #expect(summary.progress.done == 2, "two places failed and the third stopped the batch")
        #expect(summary.progress.requests == places * 2, "one try and one retry per place, then stop")
        #expect(summary.progress.failures == places * 2)
        #expect(try store.geocodeCache.count() == 0)
    }

    @Test("An interrupted batch resumes without repeating done work")
    func resume() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, Self.clubs())
        let server = try NominatimStandIn.start()
        let first = try Self.localizer(store, server, budget: 5).0.run(.init(languages: ["en", "nl", "de"]))
        #expect(first.stoppedBy == .requestBudgetExhausted(5))
        #expect(try server.requests().count == 5)
        // A stop requested from outside (Ctrl-C) also ends cleanly.
        var calls = 0
        let interrupted = try Self.localizer(store, server).0.run(.init(languages: ["en", "nl", "de"]), shouldStop: {
            calls += 1
            return calls > 3
        })
        #expect(interrupted.interrupted)
        let done = try server.requests().count
        let last = try Self.localizer(store, server).0.run(.init(languages: ["en", "nl", "de"]))
        #expect(last.isComplete)
        let requests = try server.requests()
        #expect(requests.count == 12, "all runs together ask exactly what one run asks (\(requests.count), \(done) before the last)")
        #expect(Set(requests.map(\.query)).count == requests.count, "no request repeated")
    }

    @Test("Faults: nothing bad is cached, the batch goes on; 403 stops it at once")
    func faults() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try NominatimStandIn.store(in: directory, [("brussel", NominatimStandIn.places["brussel"]!),
                                                              ("eindhoven", NominatimStandIn.places["eindhoven"]!)])
        // Brussel: always 500; Eindhoven: non-JSON.
        let server = try NominatimStandIn.start(faults: [
            Response(status: 500, when: ["lat": "50.8466"]),
            Response(status: 200, body: "{\"place_id\":1,", when: ["lat": "51.42398"]),
        ])
        let summary = try Self.localizer(store, server).0.run(.init(languages: ["en", "nl"]))
        #expect(summary.stoppedBy == nil && summary.progress.failures == 4 && summary.progress.done == 2)
        #expect(try server.requests().count == 3 + 1)
        #expect(try store.geocodeCache.count() == 0)

        let blocked = try NominatimStandIn.start(faults: [Response(status: 403, body: "Access blocked")])
        let stopped = try Self.localizer(store, blocked).0.run(.init(languages: ["en", "nl"]))
        guard case .blocked = stopped.stoppedBy else { Issue.record("expected 403 to stop the batch"); return }
        #expect(try blocked.requests().count == 1)
        #expect(try store.geocodeCache.count() == 0)
    }
}
