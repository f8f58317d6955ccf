import Foundation
import HubGeoJSON

/// The map page: one HTML file with Leaflet, its marker-cluster plugin, the world outline and
/// (for `hubgeo map`) the data inlined, so that it opens with no network.
///
/// Its script and style are web files beside this one, embedded at build time (`MapWebFiles`):
/// `Web/map-common.js` (the map, panel, popups, lists, language) followed, in the same `<script>`
/// element, by the page's own `Web/map-embedded.js` (`hubgeo map`) or `Web/map-served.js`
/// (`hubgeo serve`), and `Web/map.css`. What the page does is told at the top of each file.
///
/// Every piece of data sits in `<script type="application/json">` elements escaped by
/// `JSONString` for a script element and is read with `JSON.parse`; the page script builds popups and lists with
/// DOM text nodes, never with HTML strings, so no data can become markup or script.
public struct MapPage: Sendable {
    /// Where the page takes its organizations from.
    public enum Source: Sendable {
        /// Inlined: one GeoJSON FeatureCollection (as `export geojson` writes it) per language;
        /// a nil language is the collection without `--lang`.
        case embedded([(language: String?, geoJSON: String)])
        /// Fetched from the `hubgeo serve` API as the view moves: the view's clusters from
        /// `/api/clusters`, an organization's popup from `/api/organizations/{id}`, and `/api/near`,
        /// `/api/search` (at most `featureCap` features at a time); `extent` (west, south, east,
        /// north) is fitted when the page opens.
        case server(languages: [String], extent: [Double]?, featureCap: Int)
    }

    /// Where the page takes its organizations from.
    public var source: Source
    /// The page's title.
    public var title: String

    /// A page of the organizations of `source`, titled `title`.
    public init(source: Source, title: String = "Photo Club Hub: clubs and museums") {
        self.source = source
        self.title = title
    }

    /// The page's licence and attribution notes besides the libraries' own.
    public static let dataNotice = """
        Data: Photo Club Hub (github.com/vdhamer/Photo-Club-Hub, MIT licence). Localized towns and countries: \
        OpenStreetMap contributors via Nominatim (ODbL). Online base map: OpenStreetMap tiles, \
        (c) OpenStreetMap contributors, openstreetmap.org/copyright.
        """

    /// The whole page.
    public func html(assets: LeafletAssets) -> String {
        let config = JSONString.adapting(json: configJSON(), to: .scriptElement)
        let world = JSONString.adapting(json: WorldOutline.json, to: .scriptElement)
        var about = [Self.dataNotice, WorldOutline.notice].joined(separator: "\n\n")
        for licence in assets.licences {
            about += "\n\n==== \(licence.name) ====\n\(licence.text)"
        }
        let pageScript: String
        switch source {
        case .embedded: pageScript = MapWebFiles.mapEmbeddedJS
        case .server: pageScript = MapWebFiles.mapServedJS
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="strict-origin-when-cross-origin">
            <title>\(XMLText.escaped(title))</title>
            <style>
            \(assets.css)
            \(MapWebFiles.mapCSS)</style>
            </head>
            <body>
            <div id="map" role="application" aria-label="Map of clubs and museums"></div>
            <div id="hubgeo-panel">
              <div class="hubgeo-row">
                <input id="hubgeo-search" type="search" autocomplete="off" spellcheck="false">
                <select id="hubgeo-lang" hidden></select>
              </div>
              <div id="hubgeo-notice" hidden></div>
              <ol id="hubgeo-results" hidden></ol>
              <div id="hubgeo-near" hidden><div id="hubgeo-near-title"></div><ol id="hubgeo-near-list"></ol></div>
              <details id="hubgeo-about"><summary></summary><pre>\(XMLText.escaped(about))</pre></details>
            </div>
            <script type="application/json" id="hubgeo-config">\(config)</script>
            <script type="application/json" id="hubgeo-world">\(world)</script>
            <script>\(assets.leafletJS)</script>
            <script>\(assets.markerClusterJS)</script>
            <script>\(MapWebFiles.mapCommonJS)\(pageScript)</script>
            </body>
            </html>

            """
    }

    /// The page's configuration object, as JSON. Its `mode` names the page; the script does not read it
    /// (each page has its own script file).
    func configJSON() -> String {
        switch source {
        case .embedded(let collections):
            let languages = collections.compactMap(\.language)
            let members = collections.map { JSONString.quoted($0.language ?? "", for: .javaScript) + ":" + $0.geoJSON }
            return "{\"mode\":\"embedded\",\"languages\":[\(languages.map { JSONString.quoted($0, for: .javaScript) }.joined(separator: ","))],"
                + "\"collections\":{\(members.joined(separator: ",\n"))}}"
        case .server(let languages, let extent, let cap):
            let box = extent.map { "[" + $0.map(ExportText.coordinate).joined(separator: ",") + "]" } ?? "null"
            return "{\"mode\":\"server\",\"languages\":[\(languages.map { JSONString.quoted($0, for: .javaScript) }.joined(separator: ","))],"
                + "\"extent\":\(box),\"cap\":\(cap)}"
        }
    }
}
