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
            Listens on 127.0.0.1:8080 unless told otherwise: --host/--port, else $HUBGEO_HOST/$HUBGEO_PORT, \
            else host = / port = in the config file. Stops on Ctrl-C (SIGINT) or SIGTERM. One line per request on stderr.
            """)

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1: this machine only).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("Port (default 8080; 0 picks a free one).", valueName: "port"))
    var port: Int?

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
    }

    func run() async throws {
        try OpenFileLimit.checkForServing()
        let (host, port) = try ServerSettings.resolve(host: host, port: port)
        let settings = ServerSettings(host: host, port: port, featureCap: maxFeatures,
                                      requestTimeout: .milliseconds(Int64(timeout * 1000)),
                                      languages: try languages.map { try LanguageList.parse($0) } ?? [])
        let store = try database.openStoreForQueries(access: .readOnlyPool)
        // `lang` shows the answers cached with the endpoint and zoom `localize` would use.
        let nominatim = try NominatimConfiguration.resolve()
        let server = try MapServer(store: store, settings: settings, assets: try LeafletAssets.load(),
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
