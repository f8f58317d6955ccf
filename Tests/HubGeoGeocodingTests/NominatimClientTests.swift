import Foundation
@testable import HubGeoGeocoding
import HubGeoHTTP
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The Nominatim client with real libcurl against the loopback stand-in: pacing, retries,
/// Retry-After and every fault mode. Intervals and backoffs are short so the suite stays fast.
@Suite("Nominatim client")
struct NominatimClientTests {
    let eindhoven = NominatimStandIn.places["eindhoven"]!
    static let okBody = Response(headers: ["Content-Type": "application/json"],
                                 bodyFile: NominatimStandIn.standin.appendingPathComponent("eindhoven_en.json").path)
    typealias Response = LoopbackServer.Response

    @Test("Request: jsonv2, zoom 14, addressdetails, namedetails, language, email; identifying User-Agent")
    func requestShape() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let answer = try client.reverse(eindhoven, language: "nl")
        #expect(answer.result.town == "Eindhoven")
        #expect(answer.result.country == "Nederland")
        let request = try #require(try server.requests().first)
        #expect(request.path == "/reverse")
        let query = queryParameters(request)
        #expect(query["lat"] == "51.42398")
        #expect(query["lon"] == "5.4501")
        #expect(query["format"] == "jsonv2")
        #expect(query["zoom"] == "14")
        #expect(query["addressdetails"] == "1")
        #expect(query["namedetails"] == "1")
        #expect(query["accept-language"] == "nl")
        #expect(query["email"] == "tests@example.org")
        #expect(request.headers["user-agent"] == "hubgeo/\(HubGeoVersion.current) (tests@example.org)")
    }

    @Test("Never faster than the interval, one connection (gaps measured at the server)")
    func rateLimit() throws {
        let server = try NominatimStandIn.start()
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, interval: 0.2))
        for _ in 0..<6 { _ = try client.reverse(eindhoven, language: "en") }
        let requests = try server.requests()
        #expect(requests.count == 6)
        for gap in arrivalGaps(requests) { #expect(gap >= 0.2 * 0.95, "gap \(gap)") }
        #expect(Set(requests.map(\.clientPort)).count == 1)
    }

    @Test("The public server is never asked faster than once a second")
    func publicInterval() {
        let configuration = NominatimConfiguration(minimumInterval: 0.1)
        #expect(configuration.minimumInterval == 1)
        #expect(configuration.isPublicServer)
        let own = NominatimConfiguration(endpoint: URL(string: "http://nominatim.local:8080/")!, minimumInterval: 0.1)
        #expect(own.minimumInterval == 0.1)
        #expect(own.endpointKey == "http://nominatim.local:8080")
    }

    @Test("429 honours Retry-After, then succeeds")
    func retryAfter429() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 429, headers: ["Retry-After": "1"], body: "slow down", times: 1)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        #expect(try client.reverse(eindhoven, language: "en").result.town == "Eindhoven")
        let requests = try server.requests()
        #expect(requests.count == 2)
        #expect(try #require(arrivalGaps(requests).first) >= 0.95)
    }

    @Test("503 with a Retry-After beyond the cap stops at once")
    func retryAfterTooLong() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 503, headers: ["Retry-After": "3600"])])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        #expect(throws: GeocodeError.rateLimited(client.url(for: eindhoven, language: "en"), status: 503, retryAfter: 3600)) {
            try client.reverse(eindhoven, language: "en")
        }
        #expect(try server.requests().count == 1)
    }

    @Test("500 retries with backoff a bounded number of times")
    func serverErrorBounded() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 500, body: "oops")])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, maxRetries: 2))
        #expect(throws: GeocodeError.serverError(client.url(for: eindhoven, language: "en"), status: 500)) {
            try client.reverse(eindhoven, language: "en")
        }
        let requests = try server.requests()
        #expect(requests.count == 3)
        let gaps = arrivalGaps(requests)
        #expect(gaps[0] >= 0.05 * 0.95 && gaps[1] >= 0.1 * 0.95, "backoff gaps \(gaps)")
    }

    @Test("500 twice, then the answer")
    func serverErrorRecovers() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 502, times: 2)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, maxRetries: 2))
        #expect(try client.reverse(eindhoven, language: "en").result.town == "Eindhoven")
        #expect(try server.requests().count == 3)
    }

    @Test("403 fails at once, naming the usage policy")
    func blocked() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 403, body: "Access blocked")])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        #expect(error?.stopsBatch == true)
        #expect(error?.localizedDescription.contains("usage policy") == true)
        #expect(error?.localizedDescription.contains("Access blocked") == true)
        #expect(try server.requests().count == 1)
    }

    @Test("400 is a bug report with the server's message")
    func badRequest() throws {
        let body = try String(contentsOf: NominatimStandIn.samples.appendingPathComponent("err_lat_abc.json"), encoding: .utf8)
        let server = try NominatimStandIn.start(faults: [Response(status: 400, body: body)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        #expect(error == .badRequest(client.url(for: eindhoven, language: "en"), message: "Parameter 'lat' must be a number."))
        #expect(error?.localizedDescription.contains("bug") == true)
        #expect(try server.requests().count == 1)
    }

    @Test("A timeout retries a bounded number of times, then fails")
    func timeout() throws {
        let server = try NominatimStandIn.start(faults: [.action(.hang)], lifetime: 20)
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, maxRetries: 1, totalTimeout: 0.5))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        guard case .network(.timedOut) = error else { Issue.record("expected a timeout, got \(String(describing: error))"); return }
        #expect(error?.stopsBatch == false)
        #expect(try server.requests().count == 2)
    }

    @Test("A slow answer within the timeout is fine")
    func slow() throws {
        var slow = Self.okBody
        slow.delay = 0.4
        slow.times = 1
        let server = try NominatimStandIn.start(faults: [slow])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, totalTimeout: 3))
        #expect(try client.reverse(eindhoven, language: "en").result.town == "Eindhoven")
        #expect(try server.requests().count == 1)
    }

    @Test("A reset connection is retried")
    func reset() throws {
        let server = try NominatimStandIn.start(faults: [Response(action: .reset, times: 1)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        #expect(try client.reverse(eindhoven, language: "en").result.town == "Eindhoven")
        #expect(try server.requests().count == 2)
    }

    @Test("A reset of the kept-alive connection: the resend waits for the interval and is counted (gaps measured at the server)")
    func resetOfAKeptAliveConnection() throws {
        var first = Self.okBody
        first.times = 1
        // The first request opens the connection; the second, on that kept-alive connection, is reset.
        let server = try NominatimStandIn.start(faults: [first, Response(action: .reset, times: 1)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, interval: 0.3))
        for _ in 0..<3 { #expect(try client.reverse(eindhoven, language: "en").result.town == "Eindhoven") }
        let requests = try server.requests()
        #expect(requests.count == 4, "the reset request was sent again once")
        #expect(client.requestCount == requests.count, "hubgeo counted \(client.requestCount), the server saw \(requests.count)")
        for gap in arrivalGaps(requests) { #expect(gap >= 0.3 * 0.95, "gap \(gap) in \(arrivalGaps(requests))") }
    }

    @Test("A resend that would exceed the request budget is not sent")
    func resetWithinTheBudget() throws {
        var first = Self.okBody
        first.times = 1
        let server = try NominatimStandIn.start(faults: [first, Response(action: .reset, times: 1)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        client.requestBudget = 2
        _ = try client.reverse(eindhoven, language: "en")
        #expect(throws: GeocodeError.requestBudgetExhausted(2)) { try client.reverse(eindhoven, language: "en") }
        #expect(try server.requests().count == 2)
        #expect(client.requestCount == 2)
    }

    @Test("A truncated body is a transient transfer failure, retried a bounded number of times")
    func truncated() throws {
        var truncated = Self.okBody
        truncated.action = .truncate
        let server = try NominatimStandIn.start(faults: [truncated])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, maxRetries: 2))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        guard case .network(.transfer) = error else { Issue.record("expected a transfer error, got \(String(describing: error))"); return }
        #expect(try server.requests().count == 3)
    }

    @Test("A non-JSON 200 body is an invalid response, not retried")
    func nonJSON() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 200, headers: ["Content-Type": "text/html"], body: "<html>maintenance</html>")])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        guard case .invalidResponse = error else { Issue.record("expected invalidResponse, got \(String(describing: error))"); return }
        #expect(try server.requests().count == 1)
    }

    @Test("404 (wrong endpoint) stops with the status")
    func notFound() throws {
        let server = try LoopbackServer(script: [:])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server))
        let error = #expect(throws: GeocodeError.self) { try client.reverse(eindhoven, language: "en") }
        guard case .unexpectedStatus(_, 404, _) = error else { Issue.record("expected 404, got \(String(describing: error))"); return }
        #expect(error?.stopsBatch == true)
    }

    @Test("The request budget is never exceeded")
    func budget() throws {
        let server = try NominatimStandIn.start(faults: [Response(status: 500)])
        let client = NominatimClient(configuration: NominatimStandIn.configuration(server, maxRetries: 5))
        client.requestBudget = 2
        #expect(throws: GeocodeError.requestBudgetExhausted(2)) { try client.reverse(eindhoven, language: "en") }
        #expect(try server.requests().count == 2)
    }

    @Test("Retry-After as seconds or HTTP date")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(NominatimClient.retryAfter("7", now: now) == 7)
        #expect(NominatimClient.retryAfter("Tue, 14 Nov 2023 22:13:40 GMT", now: now) == 20)
        #expect(NominatimClient.retryAfter("soon", now: now) == nil)
        #expect(NominatimClient.retryAfter(nil, now: now) == nil)
    }

    @Test("Settings: flags over environment over config file; bad values are errors")
    func settings() throws {
        let directory = try TestPaths.temporaryDirectory()
        let file = try directory.write("config", "# hubgeo\nnominatim-url = http://file.example/\ncontact = file@example.org\nrequest-interval = 0.5\n")
        var environment = ["HUBGEO_CONFIG": file.path, "HUBGEO_CONTACT": "env@example.org"]
        var configuration = try NominatimConfiguration.resolve(environment: environment)
        #expect(configuration.endpointKey == "http://file.example")
        #expect(configuration.contact == "env@example.org")
        #expect(configuration.minimumInterval == 0.5)
        configuration = try NominatimConfiguration.resolve(flags: .init(endpoint: "http://flag.example", requestInterval: 0.1), environment: environment)
        #expect(configuration.endpointKey == "http://flag.example")
        #expect(configuration.minimumInterval == 0.1)
        environment["HUBGEO_REQUEST_INTERVAL"] = "fast"
        #expect(throws: GeocodeError.self) { try NominatimConfiguration.resolve(environment: environment) }
        #expect(throws: GeocodeError.self) {
            try NominatimConfiguration.resolve(flags: .init(endpoint: "ftp://x"), environment: ["HUBGEO_CONFIG": "/nonexistent"])
        }
        let defaults = try NominatimConfiguration.resolve(environment: ["HUBGEO_CONFIG": "/nonexistent"])
        #expect(defaults.isPublicServer && defaults.contact == nil && defaults.userAgent == "hubgeo/\(HubGeoVersion.current)")
    }
}
