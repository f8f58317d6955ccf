import Foundation
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel

/// The map page: one HTML file with Leaflet, its marker-cluster plugin, the world outline and
/// (for `hubgeo map`) the data inlined, so that it opens with no network.
///
/// Every piece of data sits in `<script type="application/json">` elements escaped by
/// ``ScriptSafeJSON`` and is read with `JSON.parse`; the page script builds popups and lists with
/// DOM text nodes, never with HTML strings, so no data can become markup or script.
public struct MapPage: Sendable {
    /// Where the page takes its organizations from.
    public enum Source: Sendable {
        /// Inlined: one GeoJSON FeatureCollection (as `export geojson` writes it) per language;
        /// a nil language is the collection without `--lang`.
        case embedded([(language: String?, geoJSON: String)])
        /// Fetched from the `hubgeo serve` API as the view moves (`/api/bbox`, `/api/near`,
        /// `/api/search`), at most `featureCap` features at a time; `extent` (west, south, east,
        /// north) is fitted when the page opens.
        case server(languages: [String], extent: [Double]?, featureCap: Int)
    }

    public var source: Source
    public var title: String

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
        let config = ScriptSafeJSON.escape(configJSON())
        let world = ScriptSafeJSON.escape(WorldOutline.json)
        var about = [Self.dataNotice, WorldOutline.notice].joined(separator: "\n\n")
        for licence in assets.licences {
            about += "\n\n==== \(licence.name) ====\n\(licence.text)"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="strict-origin-when-cross-origin">
            <title>\(ExportText.xmlEscaped(title))</title>
            <style>
            \(assets.css)
            \(Self.pageCSS)
            </style>
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
              <details id="hubgeo-about"><summary></summary><pre>\(ExportText.xmlEscaped(about))</pre></details>
            </div>
            <script type="application/json" id="hubgeo-config">\(config)</script>
            <script type="application/json" id="hubgeo-world">\(world)</script>
            <script>\(assets.leafletJS)</script>
            <script>\(assets.markerClusterJS)</script>
            <script>\(MapScript.source)</script>
            </body>
            </html>

            """
    }

    /// The page's configuration object, as JSON.
    func configJSON() -> String {
        switch source {
        case .embedded(let collections):
            let languages = collections.compactMap(\.language)
            let members = collections.map { ExportText.jsonString($0.language ?? "") + ":" + $0.geoJSON }
            return "{\"mode\":\"embedded\",\"languages\":[\(languages.map(ExportText.jsonString).joined(separator: ","))],"
                + "\"collections\":{\(members.joined(separator: ",\n"))}}"
        case .server(let languages, let extent, let cap):
            let box = extent.map { "[" + $0.map(ExportText.coordinate).joined(separator: ",") + "]" } ?? "null"
            return "{\"mode\":\"server\",\"languages\":[\(languages.map(ExportText.jsonString).joined(separator: ","))],"
                + "\"extent\":\(box),\"cap\":\(cap)}"
        }
    }

    static let pageCSS = """
        html, body { height: 100%; margin: 0; font: 14px/1.35 system-ui, sans-serif; }
        #map { position: absolute; inset: 0; background: #aad3df; }
        #hubgeo-panel { position: absolute; top: 10px; left: 54px; z-index: 1000; width: 300px; max-height: calc(100% - 40px);
          overflow: auto; background: rgba(255,255,255,.95); border-radius: 6px; box-shadow: 0 1px 5px rgba(0,0,0,.4); padding: 8px; }
        .hubgeo-row { display: flex; gap: 6px; }
        #hubgeo-search { flex: 1; min-width: 0; padding: 4px 6px; font: inherit; }
        #hubgeo-panel ol { margin: 6px 0 0; padding-left: 28px; max-height: 36vh; overflow: auto; }
        #hubgeo-panel li button { all: unset; cursor: pointer; color: #0645ad; }
        #hubgeo-panel li button:hover, #hubgeo-panel li button:focus { text-decoration: underline; }
        .hubgeo-distance { color: #555; margin-left: 4px; white-space: nowrap; }
        #hubgeo-notice { margin-top: 6px; color: #8a4b00; }
        #hubgeo-near-title { margin-top: 6px; font-weight: 600; }
        #hubgeo-about { margin-top: 6px; color: #555; font-size: 12px; }
        #hubgeo-about pre { white-space: pre-wrap; max-height: 240px; overflow: auto; font-size: 11px; }
        .hubgeo-marker { border: 2px solid #fff; box-shadow: 0 0 2px rgba(0,0,0,.7); box-sizing: border-box; }
        .hubgeo-club { background: #1f6fd1; border-radius: 50%; }
        .hubgeo-museum { background: #d12f1f; border-radius: 2px; }
        .hubgeo-pin { background: #222; border: 3px solid #ffd400; border-radius: 50% 50% 50% 0; transform: rotate(-45deg); box-sizing: border-box; }
        .hubgeo-legend { background: rgba(255,255,255,.95); padding: 6px 8px; border-radius: 6px; box-shadow: 0 1px 5px rgba(0,0,0,.4); }
        .hubgeo-legend div { display: flex; align-items: center; gap: 6px; }
        .hubgeo-legend .hubgeo-marker { display: inline-block; width: 14px; height: 14px; }
        .hubgeo-popup-name { font-weight: 600; font-size: 15px; }
        .hubgeo-popup-kind { color: #555; }
        .hubgeo-popup p { margin: 4px 0; }
        .hubgeo-popup a { word-break: break-all; }
        """
}
