import Foundation
import HubGeoTestSupport
import Testing

/// A map builder's own MapLibre GL JS page, on another origin than `hubgeo serve`, in a real headless
/// Chromium: it reads `/tiles.json` and the tiles across origins (CORS), or the PMTiles archive of
/// `hubgeo tiles` from a static host that answers range requests, and draws the clusters; the counts
/// of what it rendered add up to the organizations. MapLibre GL JS 5.3 comes from the `maplibre` wheel
/// of `make python-tools` (`maplibre/srcjs/`, BSD-3), read from the virtual environment into the test's
/// temporary folder, never kept in the repository.
@Suite("MapLibre GL JS pages on another origin", .serialized)
struct MapLibreBrowserTests {
    static let browserScript = TestPaths.supportDirectory.appendingPathComponent("maplibre_browser.py")

    /// `maplibre/srcjs/NAME` of the pinned wheel in `.build/python-tools`.
    static func wheelFile(_ name: String) throws -> URL {
        let lib = TestPaths.packageRoot.appendingPathComponent(".build/python-tools/lib")
        for version in (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [] {
            let file = lib.appendingPathComponent("\(version)/site-packages/maplibre/srcjs/\(name)")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        throw CommandRunner.Failure(description: "maplibre/srcjs/\(name) is not installed: make python-tools")
    }

    /// The page's script: a map of the whole world at zoom 0 whose source is `source` (a JavaScript
    /// expression), its clusters and organizations drawn as circles; once idle with the source loaded
    /// it reports the rendered features (one per id: a feature drawn twice counts once).
    static func pageScript(source: String, makeMap: String) -> String {
        """
        window.hubReport = {errors: []};
        window.addEventListener("error", (event) => window.hubReport.errors.push(String(event.message)));
        const style = {
          version: 8,
          sources: {hub: \(source)},
          layers: [
            {id: "background", type: "background", paint: {"background-color": "#eef"}},
            {id: "clusters", type: "circle", source: "hub", "source-layer": "clusters",
             paint: {"circle-color": "#2471a3", "circle-radius": ["interpolate", ["linear"], ["get", "count"], 2, 12, 200, 30],
                     "circle-stroke-width": 3, "circle-stroke-color": "#fff"}},
            {id: "organizations", type: "circle", source: "hub", "source-layer": "organizations",
             paint: {"circle-color": ["match", ["get", "type"], "museum", "#c0392b", "#117a65"], "circle-radius": 8}},
          ],
        };
        const options = {style, center: [0, 20], zoom: 0, renderWorldCopies: false, attributionControl: false, fadeDuration: 0};
        function watch(map) {
          map.on("error", (event) => window.hubReport.errors.push(String(event.error && event.error.message || event)));
          map.on("idle", () => {
            if (window.hubReport.done || !map.getSource("hub") || !map.isSourceLoaded("hub")) return;
            const seen = {};
            for (const feature of map.queryRenderedFeatures({layers: ["clusters", "organizations"]})) {
              const p = feature.properties;
              seen[feature.sourceLayer + "/" + p.id] = {layer: feature.sourceLayer, kind: p.kind || "cluster", count: p.count || 1};
            }
            const features = Object.values(seen);
            window.hubReport.done = {
              zoom: map.getZoom(),
              features: features.length,
              clusters: features.filter((f) => f.layer === "clusters").length,
              organizations: features.filter((f) => f.kind === "organization").length,
              groups: features.filter((f) => f.kind === "colocated").length,
              total: features.reduce((sum, f) => sum + f.count, 0),
            };
          });
        }
        \(makeMap)
        """
    }

    /// Runs the browser on `page` (written into `folder` as index.html) at `origin`.
    static func render(_ page: String, in folder: URL, origin: LoopbackServer, screenshot: String) throws -> [String: Any] {
        try page.write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let report = try MapBrowser.run(origin.url("/index.html").absoluteString, screenshot: screenshot, arguments: [],
                                        script: browserScript)
        #expect((report["errors"] as? [String] ?? ["?"]).isEmpty, "\(report)")
        #expect((report["console"] as? [String] ?? ["?"]).isEmpty, "\(report)")
        return try #require(report["done"] as? [String: Any], "\(report)")
    }

    @Test("a page on another origin draws the clusters of `hubgeo serve`'s /tiles.json; the rendered counts add up to 131")
    func servedTileJSON() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        let site = home.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for name in ["maplibre-gl.js", "maplibre-gl.css"] {
            try FileManager.default.copyItem(at: try Self.wheelFile(name), to: site.appendingPathComponent(name))
        }
        let origin = try LoopbackServer(root: site, lifetime: 170)
        let page = """
            <!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="maplibre-gl.css">
            <script src="maplibre-gl.js"></script></head>
            <body style="margin:0"><div id="map" style="width:1024px;height:700px"></div>
            <script>\(Self.pageScript(source: "{type: \"vector\", url: \"\(server.baseURL)/tiles.json\"}",
                                      makeMap: "watch(new maplibregl.Map(Object.assign({container: \"map\"}, options)));"))</script>
            </body></html>
            """
        let done = try Self.render(page, in: site, origin: origin, screenshot: "maplibre-served.png")
        #expect(done["total"] as? Int == 131, "\(done)")
        #expect((done["clusters"] as? Int ?? 0) >= 1, "\(done)")
        #expect(server.log.contains("GET /tiles.json 200"), "\(server.log.suffix(2000))")
        #expect(server.log.range(of: #"GET /tiles/\d+/\d+/\d+\.mvt 200"#, options: .regularExpression) != nil, "\(server.log.suffix(2000))")
        _ = server.stop()
        origin.stop()
    }

    @Test("the same page reads the PMTiles archive of `hubgeo tiles` from a static host with range requests (pywidget.js's pmtiles protocol)")
    func pmtilesArchive() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let site = home.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let written = try cli.run(["tiles", "-o", site.appendingPathComponent("clubs.pmtiles").path])
        #expect(written.status == 0, "\(written.stderr)")
        for name in ["pywidget.js", "pywidget.css"] {
            try FileManager.default.copyItem(at: try Self.wheelFile(name), to: site.appendingPathComponent(name))
        }
        let origin = try LoopbackServer(root: site, lifetime: 170)
        // pywidget.js bundles MapLibre GL JS 5.3 with the pmtiles protocol registered on it, and offers
        // `pymaplibregl({mapOptions, calls})`, which makes the map in #pymaplibregl and, once loaded,
        // calls the map's methods named in `calls`: here `on("idle", ...)`, which hands the map to the report.
        let archive = origin.url("/clubs.pmtiles").absoluteString
        let page = """
            <!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="pywidget.css">
            <script src="pywidget.js"></script></head>
            <body style="margin:0"><div id="pymaplibregl" style="width:1024px;height:700px"></div>
            <script>\(Self.pageScript(source: "{type: \"vector\", url: \"pmtiles://\(archive)\"}", makeMap: """
                let handed = false;
                pymaplibregl({mapOptions: options, calls: [["on", ["idle", (event) => {
                  if (!handed) { handed = true; watch(event.target); event.target.triggerRepaint(); }
                }]]]});
                """))</script>
            </body></html>
            """
        let done = try Self.render(page, in: site, origin: origin, screenshot: "maplibre-pmtiles.png")
        #expect(done["total"] as? Int == 131, "\(done)")
        let ranges = try origin.requests(path: "/clubs.pmtiles").filter { $0.headers["range"] != nil }
        #expect(!ranges.isEmpty, "the archive is read by range requests")
        origin.stop()
    }
}
