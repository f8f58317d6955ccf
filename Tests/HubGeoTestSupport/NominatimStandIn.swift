import Foundation
import HubGeo

/// The Nominatim stand-in: a ``LoopbackServer`` replaying the real sample answers in
/// `Fixtures/nominatim/standin` (see `make_standin.py` there), chosen by lat, lon and accept-language.
package enum NominatimStandIn {
    package static let directory = TestPaths.fixtures.appendingPathComponent("nominatim")
    package static let samples = directory.appendingPathComponent("samples")
    package static let standin = directory.appendingPathComponent("standin")

    /// The sample places: (lat, lon) as in the sample URLs.
    package static let places: [String: GeoPoint] = [
        "amsterdam": GeoPoint(latitude: 52.3731, longitude: 4.8922),
        "berlicum": GeoPoint(latitude: 51.6779, longitude: 5.4011),
        "brussel": GeoPoint(latitude: 50.8466, longitude: 4.3528),
        "denhaag": GeoPoint(latitude: 52.0799, longitude: 4.3113),
        "eindhoven": GeoPoint(latitude: 51.42398, longitude: 5.45010),
        "waalre": GeoPoint(latitude: 51.3857, longitude: 5.4448),
        // In the suburb Amsterdam-Noord: the suburb at zoom 14, the city Amsterdam at zoom 10.
        "noord": GeoPoint(latitude: 52.4040, longitude: 4.9430),
        "sea": GeoPoint(latitude: 54.0, longitude: 3.0),
        "nowhere": GeoPoint(latitude: 47.0, longitude: 10.0),
    ]

    /// The replay routes of `/reverse`, with absolute body paths.
    package static func routes() throws -> [LoopbackServer.Response] {
        try routes(in: "routes.json")
    }

    /// The replay routes of `/search` (recorded by `record_search.py`), by `q` and `accept-language`;
    /// any other search finds nothing (`[]`, as Nominatim answers it).
    package static func searchRoutes() throws -> [LoopbackServer.Response] {
        try routes(in: "search_routes.json") + [LoopbackServer.Response(headers: json, body: "[]")]
    }

    private static let json = ["Content-Type": "application/json; charset=utf-8"]

    /// The routes a file of the stand-in lists: `[{"when": {...}, "body_file": NAME}]`.
    private static func routes(in file: String) throws -> [LoopbackServer.Response] {
        struct Route: Decodable { var when: [String: String]; var body_file: String }
        let routes = try JSONDecoder().decode([Route].self, from: Data(contentsOf: standin.appendingPathComponent(file)))
        return routes.map { LoopbackServer.Response(headers: json, bodyFile: standin.appendingPathComponent($0.body_file).path, when: $0.when) }
    }

    /// A runner of the built binary with a database and home in `directory`, no HUBGEO_* setting or
    /// GitHub Actions log from the caller's environment, no config file, no request interval, and
    /// `server` (when given) as its Nominatim.
    package static func runner(_ server: LoopbackServer?, in directory: TemporaryDirectory) -> CLIRunner {
        var runner = CLIRunner(database: directory.path("hub.sqlite"), home: directory.url.path)
        for name in runner.environment.keys where name.hasPrefix("HUBGEO_") || name == "GITHUB_ACTIONS" { runner.environment[name] = nil }
        runner.environment["HUBGEO_DB"] = directory.path("hub.sqlite")
        runner.environment["HUBGEO_CONFIG"] = "/nonexistent"
        runner.environment["HUBGEO_REQUEST_INTERVAL"] = "0"
        if let server { runner.environment["HUBGEO_NOMINATIM_URL"] = server.baseURL.absoluteString }
        return runner
    }

    /// A stand-in whose `/reverse` first serves `faults` (rule mode: give them `times`), then the
    /// samples, and whose `/search` first serves `searchFaults`, then the recorded searches.
    package static func start(faults: [LoopbackServer.Response] = [], searchFaults: [LoopbackServer.Response] = [],
                              lifetime: TimeInterval = 60) throws -> LoopbackServer {
        try LoopbackServer(script: ["/reverse": faults + routes(), "/search": searchFaults + searchRoutes()], lifetime: lifetime)
    }

    /// A fast configuration for tests against `server`.
    package static func configuration(_ server: LoopbackServer, interval: TimeInterval = 0.02, maxRetries: Int = 2,
                              totalTimeout: TimeInterval = 3) -> NominatimConfiguration {
        NominatimConfiguration(endpoint: server.baseURL, contact: "tests@example.org", email: "tests@example.org",
                               minimumInterval: interval, maxRetries: maxRetries, backoffBase: 0.05, backoffCap: 0.2,
                               maxRetryAfter: 5, connectTimeout: 2, totalTimeout: totalTimeout)
    }

    /// The parsed stand-in body of a place in a language: what a request in that language returns.
    package static func answer(_ place: String, _ language: String) throws -> ReverseGeocodeResult {
        let name = place == "sea" ? "sea.json" : "\(place)_\(language).json"
        return try NominatimResponseParser.parse(Data(contentsOf: standin.appendingPathComponent(name)))
    }

    /// A store in `directory` holding one club per (name, point).
    package static func store(in directory: TemporaryDirectory, _ clubs: [(String, GeoPoint)]) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("hubgeo.sqlite"))
        try store.importData(data(clubs))
        return store
    }

    package static func data(_ clubs: [(String, GeoPoint)]) -> HubData {
        let organizations = clubs.map { name, point in
            Organization(type: .club, identity: OrganizationIdentity(town: "Level1 \(name)", fullName: "Club \(name)"),
                         nickName: name, coordinates: point, level1Source: "test")
        }
        return HubData(organizations: organizations, diagnostics: [], level1Files: ["test"], level2Files: [],
                       orphanLevel2Files: [], source: "test")
    }
}

/// Gaps between consecutive request arrival times at the server.
package func arrivalGaps(_ requests: [LoopbackServer.Request]) -> [Double] {
    zip(requests.dropFirst(), requests).map { $0.t - $1.t }
}

/// The query parameters of a logged request.
package func queryParameters(_ request: LoopbackServer.Request) -> [String: String] {
    var result: [String: String] = [:]
    for pair in request.query.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
        result[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return result
}
