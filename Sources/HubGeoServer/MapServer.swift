import Foundation
import GRDB
import HubGeo
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `hubgeo serve`: the map page and a read-only GeoJSON API over one database.
///
/// - `GET /`: the map page, which loads the features in view from `/api/bbox` (clustered in the browser).
/// - `GET /api/near?lat=&lon=&km=` or `&nearest=`, `/api/bbox?minlat=&minlon=&maxlat=&maxlon=`,
///   `/api/search?q=`, `/api/organizations/{id}`: GeoJSON as `hubgeo export geojson` writes it
///   (`lang` and `type` too); at most ``ServerSettings/featureCap`` features, else `"truncated": true`.
/// - `GET /api/stats`: the counts and extent, as `hubgeo stats --format json`.
///
/// HEAD answers as GET without the body. A bad parameter gets a 400 with `{"error": ..., "parameter": ...}`,
/// an unknown id a 404, anything but GET/HEAD a 405, a database that fails a 500 (the cause goes to
/// stderr, never to the client). Each answer is read from one snapshot of the database
/// (``OrganizationStore/snapshot(_:)``) on the database's reader threads; a query past
/// ``ServerSettings/requestTimeout`` is interrupted and gets a 503, and its connection is free at once.
/// The database is only read (WAL: an import may write alongside). One log line per request on stderr.
public final class MapServer: Sendable {
    public let store: OrganizationStore
    public let settings: ServerSettings
    let page: String
    /// Where the cached localized places that `lang` shows come from: the endpoint and zoom
    /// `hubgeo localize` asks with.
    let localizationEndpoint: String
    let localizationZoom: Int

    public init(store: OrganizationStore, settings: ServerSettings, assets: LeafletAssets,
                localizationEndpoint: String = NominatimConfiguration.publicEndpoint.absoluteString,
                localizationZoom: Int = NominatimConfiguration.defaultZoom) throws {
        self.store = store
        self.settings = settings
        self.localizationEndpoint = localizationEndpoint
        self.localizationZoom = localizationZoom
        let (cachedLanguages, statistics) = try store.snapshot { store in (try store.cachedLanguages(), try store.statistics()) }
        let languages = settings.languages.isEmpty ? cachedLanguages : settings.languages
        var extent: [Double]?
        if let sw = statistics.southWest, let ne = statistics.northEast {
            extent = [sw.longitude, sw.latitude, ne.longitude, ne.latitude]
        }
        page = MapPage(source: .server(languages: languages, extent: extent, featureCap: settings.featureCap)).html(assets: assets)
    }

    /// Serves until SIGINT or SIGTERM; `onListening` gets the bound address (host and port).
    public func run(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) async throws {
        do {
            try await application(onListening: onListening).runService()  // stops gracefully on SIGTERM and SIGINT
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EADDRNOTAVAIL || error.errnoCode == EACCES {
            throw ListenError(host: settings.host, port: settings.port, code: error.errnoCode)
        }
    }

    /// What ``run(onListening:)`` serves: the routes and their middleware, on an HTTP/1 server
    /// with the connection limits. Tests also drive it in process (`app.test(.router)`).
    package func application(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestLimitsMiddleware(maxURILength: settings.maxURILength))
        router.get("/") { _, _ in self.response(self.page, contentType: "text/html") }
        router.get("/index.html") { _, _ in self.response(self.page, contentType: "text/html") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/api/near") { request, _ in await self.answer(request) { try self.near($0, in: $1) } }
        router.get("/api/bbox") { request, _ in await self.answer(request) { try self.bbox($0, in: $1) } }
        router.get("/api/search") { request, _ in await self.answer(request) { try self.search($0, in: $1) } }
        router.get("/api/stats") { request, _ in
            await self.answer(request, contentType: "application/json") { try self.stats($0, in: $1) }
        }
        router.get("/api/organizations/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await self.answer(request) { try self.organization(id: id, $0, in: $1) }
        }
        var logger = Logger(label: "hubgeo-serve")
        logger.logLevel = .error
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024,
                                                                      maxHeaderFieldCount: 100)
        return Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectRefusalHandler()], idleTimeout: .seconds(30),
                                                httpDecoderConfiguration: decoder)),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "hubgeo"),
            onServerRunning: { channel in
                onListening(channel.localAddress?.ipAddress ?? self.settings.host, channel.localAddress?.port ?? self.settings.port)
            },
            logger: logger)
    }

    /// The cached answers `lang` shows: in `language`, from the server's endpoint and zoom.
    func localization(_ language: String?) -> LocalizationSource? {
        language.map { LocalizationSource(language: $0, endpoint: localizationEndpoint, zoom: localizationZoom) }
    }

    // MARK: - Endpoints (each returns the response body, read from the snapshot `store`; throws APIError for a 4xx)

    func near(_ query: QueryParameters, in store: OrganizationStore) throws -> String {
        try query.only(["lat", "lon", "km", "nearest", "lang", "type"])
        let lat = try query.number("lat", in: -90...90)!
        let lon = try query.number("lon", in: -180...180)!
        let language = try query.language()
        let filter = OrganizationFilter(type: try query.type(), localization: localization(language))
        let center = GeoPoint(latitude: lat, longitude: lon)
        switch (query.has("km"), query.has("nearest")) {
        case (true, true): throw APIError.badParameter("nearest", "give km or nearest, not both")
        case (false, false): throw APIError.badParameter("km", "km (a radius) or nearest (a count) is missing")
        case (true, false):
            let km = try query.number("km", in: 0...20_004)!
            guard km > 0 else { throw APIError.badParameter("km", "km must be more than 0") }
            var capped = filter
            capped.limit = settings.featureCap + 1
            let matches = try store.near(center, radiusMeters: km * 1000, filter: capped)
            return try MapGeoJSON.collection(Array(matches.prefix(settings.featureCap)), language: language,
                                             truncated: matches.count > settings.featureCap)
        case (false, true):
            let count = try query.integer("nearest", in: 1...settings.featureCap)!
            return try MapGeoJSON.collection(try store.nearest(center, count: count, filter: filter), language: language)
        }
    }

    func bbox(_ query: QueryParameters, in store: OrganizationStore) throws -> String {
        try query.only(["minlat", "minlon", "maxlat", "maxlon", "lang", "type"])
        let south = try query.number("minlat", in: -90...90)!
        let west = try query.number("minlon", in: -180...180)!
        let north = try query.number("maxlat", in: -90...90)!
        let east = try query.number("maxlon", in: -180...180)!
        guard south <= north else { throw APIError.badParameter("minlat", "minlat \(south) is north of maxlat \(north)") }
        let language = try query.language()
        return try MapGeoJSON.collection(store, .within(west: west, south: south, east: east, north: north), type: try query.type(),
                                         localization: localization(language),
                                         cap: settings.featureCap).json
    }

    func search(_ query: QueryParameters, in store: OrganizationStore) throws -> String {
        try query.only(["q", "lang", "type"])
        let text = try query.required("q")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw APIError.badParameter("q", "q is empty") }
        guard text.count <= 200 else { throw APIError.badParameter("q", "q is longer than 200 characters") }
        let language = try query.language()
        return try MapGeoJSON.collection(store, .search(text), type: try query.type(),
                                         localization: localization(language), cap: settings.featureCap).json
    }

    func organization(id: String, _ query: QueryParameters, in store: OrganizationStore) throws -> String {
        try query.only(["lang"])
        let language = try query.language()
        guard id.count == 16, id.allSatisfy({ $0.isHexDigit }) else {
            throw APIError.badParameter("id", "id \"\(id)\" is not an organization id (16 hexadecimal digits)")
        }
        let organization: Organization
        do {
            organization = try store.organization(named: id)
        } catch let error as OrganizationLookupError {
            throw APIError(status: 404, message: error.localizedDescription, parameter: "id")
        }
        var match = PlaceMatch(organization: organization)
        guard ExportProperties(match).id == id else { throw APIError(status: 404, message: "no organization has the id \(id)", parameter: "id") }
        if let language {
            // As `hubgeo show --lang` answers: the language even when nothing is cached for it.
            match.localized = try store.localizedPlace(of: organization, source: localization(language)!)
                ?? LocalizedPlace(language: language, town: nil, country: nil)
        }
        return try MapGeoJSON.collection([match], language: language)
    }

    /// As `hubgeo stats --format json`, without the database's path: that is for the operator only.
    func stats(_ query: QueryParameters, in store: OrganizationStore) throws -> String {
        try query.only([])
        var statistics = try store.statistics()
        statistics.databasePath = nil
        return try PrettyJSON.string(statistics) + "\n"
    }

    // MARK: - Plumbing

    /// Runs `body` with a snapshot of the database within the request timeout; maps errors to
    /// responses. Past the timeout the query is cancelled: SQLite stops it (`sqlite3_interrupt`)
    /// and its connection returns to the pool, so slow requests hold up no others.
    func answer(_ request: Request, contentType: String = "application/geo+json",
                _ body: @escaping @Sendable (QueryParameters, OrganizationStore) throws -> String) async -> Response {
        let query = QueryParameters(query: request.uri.query ?? "")
        let timeout = settings.requestTimeout
        let tooLate = APIError(status: 503, message: "the query took longer than \(timeout)", parameter: nil)
        do {
            let text = try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { try await self.store.snapshot { try body(query, $0) } }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                guard let text = first else { throw tooLate }
                return text
            }
            return response(text, contentType: contentType)
        } catch let error as APIError {
            return response(error.json, status: .init(code: error.status), contentType: "application/json")
        } catch is CancellationError {
            return response(tooLate.json, status: .serviceUnavailable, contentType: "application/json")
        } catch {
            // The cause (which may name the file) is for the operator; the client learns that it failed.
            let cause = (error as? LocalizedError)?.errorDescription ?? "\(error)"
            FileHandle.standardError.write(Data("\(RequestLog.timestamp()) error: \(request.method) \(request.uri.path): \(cause)\n".utf8))
            let message = error is StoreError || error is DatabaseError ? "the server cannot read its database (its log says why)" : "internal server error"
            return response(APIError(status: 500, message: message, parameter: nil).json, status: .internalServerError,
                            contentType: "application/json")
        }
    }

    func response(_ text: String, status: HTTPResponse.Status = .ok, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "\(contentType); charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
