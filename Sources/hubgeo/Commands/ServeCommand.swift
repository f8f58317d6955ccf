import ArgumentParser
import Foundation
import HubGeo
import HubGeoServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the map page and a read-only GeoJSON API over HTTP.",
        discussion: """
            GET / is the map (it loads the clusters of the view); the API answers GeoJSON:
              /api/clusters?bbox=WEST,SOUTH,EAST,NORTH&zoom=Z   (clusters with count, bbox and expansionZoom)
              /api/near?lat=&lon=&km=  or  &nearest=N      /api/bbox?minlat=&minlon=&maxlat=&maxlon=
              /api/search?q=      /api/organizations/{id}      /api/stats
            the last five as export writes it, with lang= and type= where they fit. At most --max-features per answer \
            ("truncated": true past it). Answers carry an ETag (If-None-Match: 304) and are gzipped when accepted.
            Also /tiles/{z}/{x}/{y}.mvt and /tiles.json (vector tiles for MapLibre and others). Pages on other sites may read \
            every answer (CORS) unless --cors says otherwise; / needs Leaflet (libjs-leaflet), the rest does not.
            Listens on 127.0.0.1:8080 unless told otherwise. --host, --port, --cors and --public-url, else $HUBGEO_HOST, \
            $HUBGEO_PORT, $HUBGEO_CORS, $HUBGEO_PUBLIC_URL, else host =, port =, cors =, public-url = in the config file. \
            Stops on Ctrl-C (SIGINT) or SIGTERM. One line per request on stderr.
            """)

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1: this machine only).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("Port (default 8080; 0 picks a free one).", valueName: "port"))
    var port: Int?

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Which web pages on other sites may read the answers: * (every one, the default), none, or their origins.",
        discussion: "Origins are scheme://host[:port], such as https://club.example; several after one --cors, or comma-separated.",
        valueName: "origin"))
    var cors: [String] = []

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The URL clients reach this server at (behind a proxy): /tiles.json's tile URLs start with it, not with the request's Host.",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Languages of the page's switcher, comma-separated. Default: the cached ones.",
        discussion: "Towns and countries as `hubgeo localize` cached them with the Nominatim endpoint and zoom it would use now "
            + "($HUBGEO_NOMINATIM_URL and $HUBGEO_NOMINATIM_ZOOM, else the config file, else the public server at zoom 14).",
        valueName: "xx[,yy]"))
    var languages: String?

    @Option(name: .customLong("max-features"), help: "The most features one answer carries (1 to 1000000000; default 5000).")
    var maxFeatures: Int = 5_000

    @Option(name: .customLong("timeout"), help: "Seconds a query may take; past them it is stopped and the request gets a 503 (default 10).")
    var timeout: Double = 10

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let languages { _ = try LanguageList.parse(languages) }
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be 0-65535") }
        try CountBounds.check(maxFeatures, "--max-features", minimum: 1)
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a positive number of seconds") }
        do throws(SettingError) {
            _ = try flags.checked()
        } catch {
            throw ValidationError(error.message)
        }
    }

    private var flags: ServerSettings.Flags { ServerSettings.Flags(host: host, port: port, cors: cors, publicURL: publicURL) }

    func run() async throws {
        try OpenFileLimit.checkForServing()
        var settings = try ServerSettings.resolve(flags)
        settings.featureCap = maxFeatures
        settings.requestTimeout = .milliseconds(Int64(timeout * 1000))
        settings.languages = try languages.map { try LanguageList.parse($0) } ?? []
        let store = try database.openStoreForQueries(access: .readOnlyPool)
        // `lang` shows the answers cached with the endpoint and zoom `localize` would use.
        let nominatim = try NominatimConfiguration.resolve()
        // Only the page needs Leaflet: without it, / answers a 503 that says so and the rest is served.
        var assets: LeafletAssets?
        do {
            assets = try LeafletAssets.load()
        } catch {
            Console.note("warning: \((error as? LocalizedError)?.errorDescription ?? "\(error)"); / answers 503 until it is installed "
                + "and the server restarted (/api/, /tiles/ and /tiles.json do not need it)")
        }
        let server = try MapServer(store: store, settings: settings, assets: assets,
                                   localizationEndpoint: nominatim.endpointKey, localizationZoom: nominatim.zoom)
        let path = store.path
        try await server.run { address, port in
            let shown = address.contains(":") ? "[\(address)]" : address
            // One write, so that whoever reads the "Serving" line has the warning too.
            var note = "Serving \(path) on http://\(shown):\(port)/ (Ctrl-C stops)"
            if !Self.isLoopback(address) {
                note += "\nwarning: listening on \(shown), which other machines can reach: anyone who reaches this machine "
                    + "can use the API (--host 127.0.0.1 keeps it to this machine)"
            }
            Console.note(note)
        }
        Console.note("Stopped.")
    }
}

extension ServeCommand {
    /// True for an address only this machine reaches: 127.0.0.0/8, ::1, or ::ffff:127.x.y.z.
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.lowercased().hasPrefix("::ffff:127.")
    }
}
