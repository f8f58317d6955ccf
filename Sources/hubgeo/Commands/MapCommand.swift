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

    @OptionGroup var selectionOptions: SelectionOptions

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let languages { _ = try LanguageList.parse(languages) }
        if output.isEmpty { throw ValidationError("-o needs a file name, or - for standard output") }
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
                                                       })
                collections.append((language, result.json))
                count = result.count
            }
            return (chosen, collections, count)
        }
        let html = MapPage(source: .embedded(collections)).html(assets: assets)
        let sink = try OutputFile(path: output, protecting: [store.path])
        do {
            try sink.write(html)
            try sink.commit()
        } catch {
            sink.abandon()
            throw error
        }
        if !sink.isStandardStream {
            let languagesNote = chosen.isEmpty ? "no language" : chosen.compactMap { $0 }.joined(separator: ", ")
            Console.note("Wrote \(output): \(count) organization\(count == 1 ? "" : "s"), \(languagesNote), \(html.utf8.count) bytes.")
        }
    }
}
