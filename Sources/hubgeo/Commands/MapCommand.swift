import ArgumentParser
import Foundation
import HubGeo

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Write a self-contained HTML map of the organizations (opens with no network).",
        discussion: """
            Leaflet and its marker-cluster plugin (Debian libjs-leaflet, libjs-leaflet.markercluster), \
            a world outline and the GeoJSON are inlined. Clubs and museums as two kinds of clustered markers, \
            popups, a search box, a language switcher (with more than one language), and a click on the map \
            lists the 10 nearest organizations. Online it shows OpenStreetMap tiles.
            Languages: --lang en,nl; by default every language the geocode cache holds (hubgeo localize).
            Filters as in export: --type, --near LAT LON --km R, --bbox MINLAT MINLON MAXLAT MAXLON, --search TEXT.
            A page holds at most --max-organizations (default \(MapCommand.defaultLimit)): past that a browser takes \
            seconds to open it, and hubgeo serve, which clusters on the server and loads only the view, is the map to use.
            Examples: hubgeo map -o map.html --lang en,nl
                      hubgeo map --near 51.4 5.4 --km 50 -o eindhoven.html
            """)

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "Output file; - for standard output.", valueName: "file"))
    var output: String = "map.html"

    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Languages of the page, comma-separated (first is the default). Default: the cached ones.",
        discussion: "Towns and countries as `hubgeo localize` cached them with the Nominatim endpoint and zoom it would use now "
            + "($HUBGEO_NOMINATIM_URL and $HUBGEO_NOMINATIM_ZOOM, else the config file, else the public server at zoom 14).",
        valueName: "xx[,yy]"))
    var languages: String?

    @Option(name: .customLong("max-organizations"), help: ArgumentHelp(
        "The most organizations the page may hold (1 to 1000000000; default \(MapCommand.defaultLimit)).",
        discussion: "More are refused: a browser opens such a page slowly or not at all; hubgeo serve shows any number.",
        valueName: "n"))
    var maxOrganizations: Int = MapCommand.defaultLimit

    @OptionGroup var selectionOptions: SelectionOptions

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        try selectionOptions.finish(Self.self)
        if let languages { _ = try LanguageList.parse(languages) }
        if output.isEmpty { throw ValidationError("-o needs a file name, or - for standard output") }
        try CountBounds.check(maxOrganizations, "--max-organizations", minimum: 1)
    }

    func run() throws {
        let assets = try LeafletAssets.load()
        // Every language's collection from one snapshot of the database.
        let store = try database.openStoreForQueries()
        let (chosen, collections, count) = try store.snapshot { store in
            let chosen: [String?] = try languages.map { try LanguageList.parse($0) } ?? store.cachedLanguages()
            // The cached answers of the endpoint and zoom `localize` would use (environment, config file).
            let nominatim = chosen.contains { $0 != nil } ? try NominatimConfiguration.resolve() : nil
            var collections: [(language: String?, geoJSON: String)] = []
            var count = 0
            for language in chosen.isEmpty ? [nil] : chosen {
                let result = try MapGeoJSON.collection(store, selectionOptions.selection, type: selectionOptions.type,
                                                       localization: language.flatMap { language in
                                                           nominatim.map { LocalizationSource(language: language, configuration: $0) }
                                                       }, cap: maxOrganizations)
                if result.truncated {
                    throw TooManyForAPage(limit: maxOrganizations, count: try store.count(selectionOptions.selection, filter: OrganizationFilter(type: selectionOptions.type)))
                }
                collections.append((language, result.json))
                count = result.count
            }
            return (chosen, collections, count)
        }
        let html = MapPage(source: .embedded(collections)).html(assets: assets)
        let sink = try OutputFile(path: output, protecting: [store.path], format: .json)
        do {
            try sink.write(html)
            try sink.commit()
        } catch {
            sink.abandon()
            throw error
        }
        if !sink.isStandardStream {
            let languagesNote = chosen.isEmpty ? "no language" : chosen.compactMap { $0 }.joined(separator: ", ")
            Console.note("Wrote \(output): \(counted(count, "organization")), \(languagesNote), \(html.utf8.count) bytes.")
        }
    }
}

extension MapCommand {
    /// The most organizations a page holds by default. Measured by `make bench` in headless
    /// Chromium (BENCHMARKS.md, `hubgeo map` pages): every marker is clustered 0.8 s after
    /// navigation at 10,000 organizations and 1.7 s at 20,000 (a 10 MB page), but 4 to 8 s at
    /// 50,000, 9 to 25 s at 100,000 and 29 to 44 s at 200,000 (a 100 MB page; three runs on a shared machine), since
    /// Leaflet.markercluster clusters every point in the browser.
    static let defaultLimit = 20_000

    /// A selection too big for one page.
    struct TooManyForAPage: LocalizedError {
        var limit: Int
        var count: Int

        var errorDescription: String? {
            let grouped = { (number: Int) in number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
            return "\(grouped(count)) organizations are more than one page holds well (--max-organizations \(grouped(limit))): "
                + "a browser would take long to open it, if it opens it at all. Serve them instead (hubgeo serve: clusters "
                + "computed by the server, only the view loaded), narrow the selection (--bbox, --near, --search, --type), "
                + "or raise --max-organizations. Nothing was written."
        }
    }
}
