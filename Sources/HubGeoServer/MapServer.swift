import Foundation
import HubGeo
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `hubgeo serve`: the map page and a read-only GeoJSON API over one database.
///
/// - `GET /`: the map page, which loads the clusters of the view from `/api/clusters` as the map moves.
/// - `GET /api/clusters?bbox=west,south,east,north&zoom=Z`: the clusters, organizations and co-located
///   groups of a view (``ClusterGeoJSON``), from the cluster index the last import stored.
/// - `GET /api/near?lat=&lon=&km=` or `&nearest=`, `/api/bbox?minlat=&minlon=&maxlat=&maxlon=`,
///   `/api/search?q=`, `/api/organizations/{id}`: GeoJSON as `hubgeo export geojson` writes it
///   (`lang` and `type` too); at most ``ServerSettings/featureCap`` features, else `"truncated": true`.
/// - `GET /api/stats`: the counts and extent, as `hubgeo stats --format json`.
/// - `GET /tiles/{z}/{x}/{y}.mvt` and `/tiles.json`: vector tiles of the clusters and their TileJSON
///   (MapServer+Tiles.swift).
///
/// Every answer of the API carries a weak `ETag` tied to the import (and to the cached places for a
/// `lang` answer), honours `If-None-Match` with a 304, and is gzip-compressed for a client that
/// accepts it. HEAD answers as GET without the body. A bad parameter gets a 400 with `{"error": ..., "parameter": ...}`,
/// an unknown id a 404, anything but GET/HEAD a 405, a database that fails a 500 (the cause goes to
/// stderr, never to the client). Each answer is read from one snapshot of the database
/// (``OrganizationReading/snapshot(_:)``) on the database's reader threads; a query past
/// ``ServerSettings/requestTimeout`` is interrupted and gets a 503, and its connection is free at once.
/// The database is only read (WAL: an import may write alongside). One log line per request on stderr.
public final class MapServer: Sendable {
    public let store: OrganizationStore
    public let settings: ServerSettings
    /// The map page, and gzip-compressed once for browsers that accept it (a third of its size);
    /// nil when Leaflet was missing at start.
    let page: (bytes: [UInt8], compressed: [UInt8]?)?
    /// Where the cached localized places that `lang` shows come from: the endpoint and zoom
    /// `hubgeo localize` asks with.
    let localizationEndpoint: String
    let localizationZoom: Int
    /// The cluster index of the database, loaded at start and again after an import.
    let clusterCache = ClusterIndexCache()
    /// The vector tiles of that index, with the clubs and museums of its clusters.
    let tileCache: TileCache
    /// What besides the data shapes an answer (the cap, where cached places come from, the
    /// version of hubgeo): part of every entity tag.
    let settingsTag: String
    /// Cancels the answers that run past ``ServerSettings/requestTimeout``.
    let watchdog: QueryWatchdog

    /// A server of `store`; without `assets` (Leaflet was not found) `/` answers a 503 naming the
    /// packages, and the rest as with them.
    public init(store: OrganizationStore, settings: ServerSettings, assets: LeafletAssets?,
                localizationEndpoint: String = NominatimConfiguration.publicEndpoint.absoluteString,
                localizationZoom: Int = NominatimConfiguration.defaultZoom) throws {
        self.store = store
        self.settings = settings
        self.localizationEndpoint = localizationEndpoint
        self.localizationZoom = localizationZoom
        watchdog = QueryWatchdog(timeout: settings.requestTimeout)
        tileCache = TileCache(clusterCache: clusterCache)
        var hash = FNV1a()
        for field in [HubGeoVersion.current, String(settings.featureCap), localizationEndpoint, String(localizationZoom)] {
            hash.addField(field)
        }
        settingsTag = FNV1a.hex(hash.value)
        let (cachedLanguages, statistics) = try store.snapshot { store in (try store.cachedLanguages(), try store.statistics()) }
        // Loaded (or, from a database that holds none, built) now rather than by the first request.
        _ = try store.clusterIndex(cache: clusterCache)
        let languages = settings.languages.isEmpty ? cachedLanguages : settings.languages
        var extent: [Double]?
        if let sw = statistics.southWest, let ne = statistics.northEast {
            extent = [sw.longitude, sw.latitude, ne.longitude, ne.latitude]
        }
        if let assets {
            let html = Array(MapPage(source: .server(languages: languages, extent: extent, featureCap: settings.featureCap))
                .html(assets: assets).utf8)
            page = (html, try GzipEncoding.compress(html, as: .html))
        } else {
            page = nil
        }
    }

    /// Serves until SIGINT or SIGTERM; `onListening` gets the bound address (host and port).
    public func run(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) async throws {
        do {
            try await application(onListening: onListening).runService()  // stops gracefully on SIGTERM and SIGINT
        } catch let error as IOError where [EADDRINUSE, EADDRNOTAVAIL, EACCES, EMFILE, ENFILE].contains(error.errnoCode) {
            throw ListenError(host: settings.host, port: settings.port, code: error.errnoCode)
        }
    }

    /// What ``run(onListening:)`` serves: the routes and their middleware, on an HTTP/1 server
    /// with the connection limits. Tests also drive it in process (`app.test(.router)`).
    package func application(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: CORSMiddleware(policy: settings.cors))
        router.add(middleware: RequestLimitsMiddleware(maxURILength: settings.maxURILength))
        router.get("/") { request, _ in self.pageResponse(request) }
        router.get("/index.html") { request, _ in self.pageResponse(request) }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/api/clusters") { request, _ in await self.answer(request) { try self.clusters($0, in: $1) } }
        addTileRoutes(to: router)
        router.get("/api/near") { request, _ in await self.answer(request) { try self.near($0, in: $1) } }
        router.get("/api/bbox") { request, _ in await self.answer(request) { try self.bbox($0, in: $1) } }
        router.get("/api/search") { request, _ in await self.answer(request) { try self.search($0, in: $1) } }
        router.get("/api/stats") { request, _ in
            await self.answer(request, format: .json) { try self.stats($0, in: $1) }
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
            server: .http1(configuration: .init(additionalChannelHandlers: [RequestHeadHandler.Installer(), ConnectRefusalHandler()], idleTimeout: .seconds(30),
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

    func clusters(_ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
        try query.only(["bbox", "zoom"])
        let box = try query.box("bbox")
        guard let zoom = try query.integer("zoom", in: 0...ClusterOptions.zoomLimit) else {
            throw APIError.badParameter("zoom", "zoom is missing")
        }
        let view = try store.clusters(west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom,
                                      groupLimit: Self.groupLimit, limit: settings.featureCap, cache: clusterCache)
        // The clubs and museums of each item, from the same index (the tile cache shares it).
        let tiles = try store.clusterTiles(cache: tileCache)
        return ClusterGeoJSON.collection(view, museums: tiles.museums(inItem:))
    }

    /// The most organizations a co-located group lists in `/api/clusters`.
    static let groupLimit = 100

    func near(_ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
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

    func bbox(_ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
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

    func search(_ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
        try query.only(["q", "lang", "type"])
        let text = try query.required("q")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw APIError.badParameter("q", "q is empty") }
        guard text.count <= 200 else { throw APIError.badParameter("q", "q is longer than 200 characters") }
        let language = try query.language()
        return try MapGeoJSON.collection(store, .search(text), type: try query.type(),
                                         localization: localization(language), cap: settings.featureCap).json
    }

    func organization(id: String, _ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
        try query.only(["lang"])
        let language = try query.language()
        guard id.count == 16, id.allSatisfy({ $0.isHexDigit }) else {
            throw APIError.badParameter("id", "id \"\(id)\" is not an organization id (16 hexadecimal digits)")
        }
        // Ids only: a name that spells another organization's id must not hide it.
        guard let organization = try store.organization(id: id) else {
            throw APIError(status: 404, message: "no organization has the id \(id)", parameter: "id")
        }
        var match = PlaceMatch(organization: organization)
        if let language {
            // As `hubgeo show --lang` answers: the language even when nothing is cached for it.
            match.localized = try store.localizedPlace(of: organization, source: localization(language)!)
                ?? LocalizedPlace(language: language, town: nil, country: nil)
        }
        return try MapGeoJSON.collection([match], language: language)
    }

    /// As `hubgeo stats --format json`, without the database's path: that is for the operator only.
    func stats(_ query: QueryParameters, in store: borrowing StoreSnapshot) throws -> String {
        try query.only([])
        var statistics = try store.statistics()
        statistics.databasePath = nil
        return try PrettyJSON.string(statistics) + "\n"
    }

    // MARK: - Plumbing

    /// What a request's snapshot gave: a body with its entity tag, or that the client has it.
    enum Outcome: Sendable {
        case body([UInt8], tag: String?)
        case notModified(tag: String)
    }

    /// What an answer depends on besides the data, the settings and the query (the TileJSON's
    /// tile URLs on the request's `Host`): it enters the entity tag, and `vary` names the header.
    struct AnswerVariant: Sendable {
        var tag: String
        var vary: String
    }

    /// The response to a request that failed: its 4xx, a 503 past the timeout (`tooLate`), else a
    /// 500 whose cause (which may name the file) goes to the log, for the operator; the client
    /// learns only that it failed.
    func failure(_ error: Error, of request: Request, tooLate: APIError) -> Response {
        switch error {
        case let error as APIError:
            return errorResponse(error)
        case is CancellationError:
            return errorResponse(tooLate)
        default:
            let cause = (error as? LocalizedError)?.errorDescription ?? "\(error)"
            RequestLog.writeLine("\(RequestLog.timestamp()) error: \(request.method) \(request.uri.path): \(cause)\n")
            let message = error is StoreError || DatabaseFailure(error) != nil ? "the server cannot read its database (its log says why)" : "internal server error"
            return errorResponse(APIError(status: 500, message: message, parameter: nil))
        }
    }

    /// The answer to a refused request: its status and `{"error": ..., "parameter": ...}`, never kept.
    func errorResponse(_ error: APIError) -> Response {
        response(Array(error.json.utf8), status: .init(code: error.status), format: .json)
    }

    /// The one answer pipeline of the server (the API, `/tiles/`, `/tiles.json`): runs `body` with a
    /// snapshot of the database within the request timeout and answers its bytes as `format`
    /// (``response(_:status:format:tag:vary:acceptEncoding:)``); maps errors to responses. Past the
    /// timeout the query is cancelled (``QueryWatchdog``): SQLite stops it (`sqlite3_interrupt`) and
    /// its connection returns to the pool, so slow requests hold up no others.
    ///
    /// The entity tag: the snapshot's import version (``OrganizationReading/importVersion()``), the
    /// server's settings and the `variant`, so that a request whose `If-None-Match` holds it gets a
    /// 304 before any query runs. An answer with `lang` also depends on the places `hubgeo localize`
    /// cached, which change between imports: its tag adds a digest of the body, and the 304 comes
    /// after the query.
    func answer(_ request: Request, format: AnswerFormat = .geoJSON, variant: AnswerVariant? = nil,
                bytes body: @escaping @Sendable (QueryParameters, borrowing StoreSnapshot) throws -> [UInt8]) async -> Response {
        let query = QueryParameters(query: request.uri.query ?? "")
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let localized = query.has("lang")
        var base = settingsTag
        if let variant {
            var digest = FNV1a()
            digest.addField(variant.tag)
            base += "." + FNV1a.hex(digest.value)
        }
        let tooLate = APIError(status: 503, message: "the query took longer than \(settings.requestTimeout)", parameter: nil)
        do {
            let answered = try await watchdog.run { [base] in
                try await self.store.snapshot { store -> Outcome in
                    guard let version = try store.importVersion() else { return .body(try body(query, store), tag: nil) }
                    var opaque = version + "." + base
                    if !localized, EntityTag.matches(ifNoneMatch, EntityTag.weak(opaque)) {
                        return .notModified(tag: EntityTag.weak(opaque))
                    }
                    let bytes = try body(query, store)
                    if localized {
                        var digest = FNV1a()
                        digest.add(bytes)
                        opaque += "." + FNV1a.hex(digest.value)
                    }
                    let tag = EntityTag.weak(opaque)
                    return EntityTag.matches(ifNoneMatch, tag) ? .notModified(tag: tag) : .body(bytes, tag: tag)
                }
            }
            guard let outcome = answered else { throw tooLate }
            switch outcome {
            case .body(let bytes, let tag):
                return response(bytes, format: format, tag: tag, vary: variant?.vary, acceptEncoding: request.headers[.acceptEncoding])
            case .notModified(let tag):
                var headers = Self.cachingHeaders(tag: tag, vary: variant?.vary)
                headers[.contentType] = format.contentType
                return Response(status: .notModified, headers: headers)
            }
        } catch {
            return failure(error, of: request, tooLate: tooLate)
        }
    }

    /// ``answer(_:format:variant:bytes:)`` for an endpoint that answers text.
    func answer(_ request: Request, format: AnswerFormat = .geoJSON, variant: AnswerVariant? = nil,
                _ body: @escaping @Sendable (QueryParameters, borrowing StoreSnapshot) throws -> String) async -> Response {
        await answer(request, format: format, variant: variant, bytes: { Array(try body($0, $1).utf8) })
    }

    /// An answer with an entity tag may be kept by the client, which asks again with `If-None-Match`
    /// (`no-cache`: never used without asking); one without (an error, the page) is not kept.
    /// `Vary` names what besides the target the answer depends on: its coding, and `vary`.
    static func cachingHeaders(tag: String?, vary: String? = nil) -> HTTPFields {
        var headers = HTTPFields()
        if let tag {
            headers[.eTag] = tag
            headers[.cacheControl] = "no-cache"
            headers[.vary] = "Accept-Encoding" + (vary.map { ", " + $0 } ?? "")
        } else {
            headers[.cacheControl] = "no-store"
        }
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return headers
    }

    /// The map page; a 503 naming the packages when Leaflet was missing at start (the rest of the
    /// server does without it).
    func pageResponse(_ request: Request) -> Response {
        guard let page else {
            return errorResponse(APIError(status: 503, message: "the map page needs Leaflet and its marker-cluster plugin, which this "
                                          + "server did not find when it started: install the Debian packages libjs-leaflet and "
                                          + "libjs-leaflet.markercluster (or set \(LeafletAssets.environmentVariable)) and restart it; "
                                          + "/api/, /tiles/ and /tiles.json do not need them", parameter: nil))
        }
        guard GzipEncoding.isAccepted(request.headers[.acceptEncoding]), let compressedPage = page.compressed else {
            return response(page.bytes, format: .html)
        }
        var headers = Self.cachingHeaders(tag: nil)
        headers[.contentType] = AnswerFormat.html.contentType
        headers[.contentEncoding] = "gzip"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: compressedPage)))
    }

    /// The response of `bytes` as `format`: gzip-compressed when `acceptEncoding` accepts it and it
    /// is long enough; an empty tile is a 204.
    func response(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, format: AnswerFormat, tag: String? = nil,
                  vary: String? = nil, acceptEncoding: String? = nil) -> Response {
        var headers = Self.cachingHeaders(tag: tag, vary: vary)
        headers[.contentType] = format.contentType
        if bytes.isEmpty, status == .ok, format.emptyIsNoContent { return Response(status: .noContent, headers: headers) }
        var body = bytes
        if GzipEncoding.isAccepted(acceptEncoding), let compressed = try? GzipEncoding.compress(bytes, as: format) {
            body = compressed
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
