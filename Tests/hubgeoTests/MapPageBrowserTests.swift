import Foundation
import HubGeoClusters
@testable import HubGeoDatabase
import HubGeoJSON
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// `hubgeo map` opened in a real headless Chromium with no network (see `Support/map_browser.py`).
@Suite("map page in a browser", .serialized)
struct MapPageBrowserTests {
    /// A Nominatim stand-in that answers Den Haag for every point: "The Hague" in English, "Den Haag" in Dutch.
    static func denHaagServer() throws -> LoopbackServer {
        let standin = NominatimStandIn.standin
        let headers = ["Content-Type": "application/json; charset=utf-8"]
        return try LoopbackServer(script: ["/reverse": [
            .init(headers: headers, bodyFile: standin.appendingPathComponent("denhaag_en.json").path, when: ["accept-language": "en"]),
            .init(headers: headers, bodyFile: standin.appendingPathComponent("denhaag_nl.json").path, when: ["accept-language": "nl"]),
        ]], lifetime: 120)
    }

    @Test("the built-in data: 131 in the clusters, popups, language switch, search, and a click lists what near --nearest 10 lists")
    func builtInData() throws {
        let home = try TestPaths.temporaryDirectory()
        let server = try Self.denHaagServer()
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        for name in cli.environment.keys where name.hasPrefix("HUBGEO_") && name != "HUBGEO_DB" { cli.environment[name] = nil }
        cli.environment["HUBGEO_NOMINATIM_URL"] = server.baseURL.absoluteString
        cli.environment["HUBGEO_REQUEST_INTERVAL"] = "0"
        cli.environment["HUBGEO_CONFIG"] = "/nonexistent"
        let localized = try cli.run(["localize", "--lang", "en,nl"], timeout: 120)
        #expect(localized.status == 0, "\(localized.stderr)")

        let page = home.path("map.html")
        let written = try cli.run(["map", "-o", page])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("131 organizations, en, nl"), "\(written.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Leaflet") && html.contains("Natural Earth") && html.contains("Copyright"), "licences carried in the page")

        let searches = ["waalre", "FOTOGRAFIA", "musee"]
        let clicks = ["45,-30", "52.2,3.9,8", "51.44,5.30,11", "-34.2,150.6,7"]
        let report = try MapBrowser.run(URL(fileURLWithPath: page).absoluteString, screenshot: "map-offline.png",
                                        arguments: ["--offline", "--switch-language"] + searches.flatMap { ["--search", $0] }
                                            + clicks.map { "--click=\($0)" })

        // Every organization is in a cluster or shown alone.
        let clusters = try #require(report["clusters"] as? [String: Any])
        let counts = try #require(clusters["clusterCounts"] as? [Int])
        let singles = try #require(clusters["singleMarkers"] as? Int)
        #expect(counts.reduce(0, +) + singles == 131, "clusters \(counts) + \(singles) single markers")
        #expect(counts.count >= 2 && singles >= 1)

        // The screenshot (kept in .build/test-artifacts/map-offline.png) shows markers and the world outline.
        let shot = try #require(report["screenshot"] as? [String: Any])
        #expect((shot["markerShare"] as? Double ?? 0) > 0.002, "markers drawn: \(shot)")
        #expect((shot["landShare"] as? Double ?? 0) > 0.05, "world outline drawn offline: \(shot)")

        // The popup of a clicked marker names that organization, as the export does.
        let export = try cli.run(["export", "geojson"])
        var names: [String: String] = [:]
        var points: [String: GeoPoint] = [:]
        for feature in ((jsonObject(export.stdout) as? [String: Any])?["features"] as? [[String: Any]] ?? []) {
            names[feature["id"] as! String] = (feature["properties"] as! [String: Any])["name"] as? String
            let coordinates = (feature["geometry"] as! [String: Any])["coordinates"] as! [Double]
            points[feature["id"] as! String] = GeoPoint(latitude: coordinates[1], longitude: coordinates[0])
        }
        let store = try OrganizationStore(path: home.path("hub.sqlite"))
        #expect(names.count == 131)

        // Each cluster's ring shows its share of clubs and museums (counted by the page from its
        // markers): together with the single markers they are every club and every museum; the
        // legend explains the ring, in Dutch too.
        let types = exportedTypes(export.stdout)
        let rings = try ClusterRings(report)
        #expect(rings.icons.count == counts.count)
        for icon in rings.icons {
            #expect(ClusterRings.problem(icon, clubs: icon["clubs"] as? Int ?? -1, museums: icon["museums"] as? Int ?? -1) == nil,
                    "\(ClusterRings.problem(icon, clubs: icon["clubs"] as? Int ?? -1, museums: icon["museums"] as? Int ?? -1) ?? "")")
            #expect((icon["clubs"] as? Int ?? 0) + (icon["museums"] as? Int ?? 0) == icon["count"] as? Int)
        }
        #expect(rings.clubs == types["club"] && rings.museums == types["museum"], "\(rings.clubs) clubs, \(rings.museums) museums vs \(types)")
        #expect(!rings.mixedSeen.isEmpty, "a ring of clubs and museums seen on the screenshot: \(rings.icons)")
        #expect(rings.legend?["label"] as? String == "Ring: share of clubs and museums")
        #expect(dutchRingLegend(report) == "Ring: aandeel clubs en musea")
        let popup = try #require(report["popup"] as? [String: Any])
        let popupID = try #require(popup["id"] as? String)
        #expect(popup["name"] as? String == names[popupID], "popup \(popup)")
        for link in popup["links"] as? [[String: Any]] ?? [] {
            #expect((link["rel"] as? String)?.contains("noopener") == true)
        }

        // Switching to Dutch changes the localized town in the popup, and the labels.
        #expect(report["languages"] as? [String] == ["en", "nl"])
        #expect((popup["localized"] as? String)?.hasPrefix("The Hague, Netherlands") == true, "\(popup)")
        let dutch = try #require(report["language"] as? [String: Any])
        #expect(dutch["name"] as? String == names[popupID])
        #expect((dutch["localized"] as? String)?.hasPrefix("Den Haag, Nederland") == true, "\(dutch)")
        #expect(dutch["legend"] as? String == "Musea", "\(dutch)")

        // The search box finds what `hubgeo search` finds, in the same order.
        let found = try #require(report["searches"] as? [String: [String]])
        for text in searches {
            let cliSearch = try cli.run(["search", text, "--format", "geojson"])
            #expect(found[text] == featureIDs(cliSearch.stdout), "search \(text)")
            #expect(text != "waalre" || found[text]?.count ?? 0 >= 2)
        }

        // Each click lists what `hubgeo near LAT LON --nearest 10` lists, in its order, with its distances.
        let listed = try #require(report["clicks"] as? [[String: Any]])
        #expect(listed.count == clicks.count)
        for click in listed {
            let lat = try #require(click["lat"] as? String), lon = try #require(click["lon"] as? String)
            let near = try cli.run(["near", lat, lon, "--nearest", "10", "--format", "json"])
            #expect(near.status == 0, "\(near.stderr)")
            let rows = try #require(jsonObject(near.stdout) as? [[String: Any]])
            #expect(click["ids"] as? [String] == rows.map { $0["id"] as! String }, "near \(lat) \(lon): page \(click["names"] ?? "") vs CLI \(rows.map { $0["fullName"] ?? "" })")
            // The CLI prints distances to 0.1 m (and measures from coordinates the export rounds to 1 cm);
            // SpatiaLite's distance between the page's own points agrees with the page's to 1 mm.
            let meters = click["meters"] as? [Double] ?? []
            #expect(meters.count == rows.count)
            let pin = GeoPoint(latitude: Double(lat)!, longitude: Double(lon)!)
            for (index, row) in rows.enumerated() where index < meters.count {
                let expected = row["distanceMeters"] as! Double
                #expect(abs(meters[index] - expected) < 0.06, "distance \(meters[index]) vs \(expected)")
                let spatiaLite = try store.geodesicDistance(from: pin, to: points[row["id"] as! String]!)
                #expect(abs(meters[index] - spatiaLite) < 0.001, "distance \(meters[index]) vs SpatiaLite's \(spatiaLite)")
            }
            #expect(click["firstPopup"] as? String == rows.first?["fullName"] as? String)
        }

        let hazards = try #require(report["hazards"] as? [String: Any])
        #expect(hazards["pwned"] is NSNull && hazards["scripts"] as? Int == 5)
        #expect((report["consoleErrors"] as? [String])?.isEmpty == true, "\(report["consoleErrors"] ?? "")")
    }

    @Test("hostile strings show as text and run nothing")
    func hostileStrings() throws {
        let home = try TestPaths.temporaryDirectory()
        let hostileName = #"Club "<&]]></script><script>window.__pwned=1</script><!-- <img src=x onerror="window.__pwned=2"> 'q' מועדון צילום 📷👩‍👩‍👧"#
        let hostileRemark = #"</script><script>window.__pwned=3</script> <!-- --> ]]> "quoted" & <b>bold</b> نادي التصوير 🎞️"#
        let remark = JSONString.quoted(hostileRemark, for: .javaScript)
        let level1 = Level1Builder.level1(clubs: [
            Level1Builder.Entry(town: #"<Town> & "Co" </script>"#, fullName: hostileName, nickName: "hostile",
                                latitude: 51.5, longitude: 5.5,
                                optional: #"{"website": "javascript:window.__pwned=4", "wikipedia": "https://example.org/\"><script>window.__pwned=5</script>", "remark": [{"language": "EN", "value": \#(remark)}]}"#),
            Level1Builder.Entry(town: "Eindhoven", fullName: "Plain Club", nickName: "plain", latitude: 51.44, longitude: 5.47),
        ])
        let folder = home.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try level1.write(to: folder.appendingPathComponent("root_.level1.json"), atomically: true, encoding: .utf8)
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let imported = try cli.run(["import", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let page = home.path("hostile.html")
        let written = try cli.run(["map", "-o", page, "--lang", "en"])
        #expect(written.status == 0, "\(written.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("window.__pwned=1</script>") && !html.contains("<!-- <img"), "the data is escaped in the page source")

        let report = try MapBrowser.run(URL(fileURLWithPath: page).absoluteString, screenshot: "map-hostile.png",
                                        arguments: ["--offline", "--open-search", "hostile", "--search", "מועדון"])
        let opened = try #require(report["opened"] as? [String: Any])
        #expect(opened["name"] as? String == hostileName)
        #expect(opened["remark"] as? String == hostileRemark)
        #expect(opened["town"] as? String == #"<Town> & "Co" </script>"#)
        #expect(opened["images"] as? Int == 0)
        let links = opened["links"] as? [[String: Any]] ?? []
        #expect(links.allSatisfy { ($0["href"] as? String)?.hasPrefix("https://") == true }, "no javascript: link: \(links)")
        let hazards = try #require(report["hazards"] as? [String: Any])
        #expect(hazards["pwned"] is NSNull, "\(hazards)")
        #expect(hazards["scripts"] as? Int == 5)
        #expect(hazards["title"] as? String == "Photo Club Hub: clubs and museums")
        #expect((report["searches"] as? [String: [String]])?["מועדון"]?.count == 1)
        let clusters = try #require(report["clusters"] as? [String: Any])
        #expect((clusters["clusterCounts"] as? [Int] ?? []).reduce(0, +) + (clusters["singleMarkers"] as? Int ?? 0) == 2)
    }
}

/// The page as `hubgeo serve` serves it: the clusters of the view from `/api/clusters`, the nearest from `/api/near`.
@Suite("served map page in a browser")
struct ServedMapPageBrowserTests {

    /// Checks each cluster icon's ring of the page's first view against the clubs and museums that
    /// /api/clusters gives at that zoom (a co-located group is ringed only when it holds both), and its size.
    static func expectRings(_ report: [String: Any], server: ServeProcess) throws -> ClusterRings {
        let served = try #require(report["served"] as? [String: Any])
        let zoom = try #require(served["zoom"] as? Int)
        let world = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=\(zoom)")
        var expected: [String: (clubs: Int, museums: Int)] = [:]
        for feature in (jsonObject(world.body) as? [String: Any])?["features"] as? [[String: Any]] ?? [] {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            if let clubs = properties["clubs"] as? Int, let museums = properties["museums"] as? Int, let id = feature["id"] as? String {
                expected[id] = (clubs, museums)
            }
        }
        let rings = try ClusterRings(report)
        let clusters = try #require(report["clusters"] as? [String: Any])
        #expect(rings.icons.count == (clusters["clusterCounts"] as? [Int] ?? []).count && !rings.icons.isEmpty)
        for icon in rings.icons {
            let id = icon["id"] as? String ?? "", count = icon["count"] as? Int ?? 0
            let counts = try #require(expected[id], "cluster \(id) in /api/clusters at zoom \(zoom)")
            let ringed = icon["group"] as? Bool != true || (counts.clubs > 0 && counts.museums > 0)
            let problem = ClusterRings.problem(icon, clubs: counts.clubs, museums: counts.museums, ringed: ringed)
            #expect(problem == nil, "\(id): \(problem ?? "")")
            #expect(icon["width"] as? Double == (count < 100 ? 36 : count < 10000 ? 42 : 50), "the icon's size as before: \(icon)")
        }
        return rings
    }
    @Test("the served page shows the 131 organizations and a click lists what near --nearest 10 lists")
    func servedPage() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)
        let report = try MapBrowser.run(server.baseURL + "/", screenshot: "map-served.png",
                                        arguments: ["--search", "waalre", "--click=52.2,3.9,8", "--click=40,-40"])
        let clusters = try #require(report["clusters"] as? [String: Any])
        #expect((clusters["clusterCounts"] as? [Int] ?? []).reduce(0, +) + (clusters["singleMarkers"] as? Int ?? 0) == 131)
        let searched = try cli.run(["search", "waalre", "--format", "geojson"])
        #expect((report["searches"] as? [String: [String]])?["waalre"] == featureIDs(searched.stdout))
        for click in report["clicks"] as? [[String: Any]] ?? [] {
            let near = try cli.run(["near", click["lat"] as! String, click["lon"] as! String, "--nearest", "10", "--format", "geojson"])
            #expect(click["ids"] as? [String] == featureIDs(near.stdout))
        }
        #expect((report["clicks"] as? [Any])?.count == 2)
        #expect(server.log.contains("GET /api/clusters?bbox="), "the page loads the clusters of the view")
        let served = try #require(report["served"] as? [String: Any])
        #expect(served["organizations"] as? Int == 131 && served["zoom"] is Int, "\(served)")
        #expect(server.log.contains("GET /api/near?lat="))

        // Each cluster's ring shows its share of clubs and museums as /api/clusters gives them at that
        // zoom (a co-located group's only when it holds both), its arcs drawn on the screenshot in their
        // colours; with the single markers they are every club and every museum. The legend explains it.
        let rings = try Self.expectRings(report, server: server)
        let types = exportedTypes(try cli.run(["export", "geojson"]).stdout)
        #expect(rings.clubs == types["club"] && rings.museums == types["museum"], "\(rings.clubs) clubs, \(rings.museums) museums vs \(types)")
        #expect(!rings.mixedSeen.isEmpty, "a ring of clubs and museums seen on the screenshot: \(rings.icons)")
        #expect(rings.legend?["label"] as? String == "Ring: share of clubs and museums")
        let legendClub = ClusterRings.arcs(rings.legend ?? [:], "club")
        #expect(abs(legendClub.length / legendClub.circumference - 2.0 / 3) < 0.001, "the legend's ring: two clubs to one museum")
        #expect((report["consoleErrors"] as? [String])?.isEmpty == true, "\(report["consoleErrors"] ?? "")")
        _ = server.stop()
    }

    @Test("every search result opens its own popup, also once the map has moved away from it")
    func searchResultsOutsideTheView() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)
        // Stockholm, Berlin, New York, Oslo, Shanghai, Tallinn: the first click zooms to Stockholm,
        // and the view then holds none of the others.
        let report = try MapBrowser.run(server.baseURL + "/", screenshot: "map-served-search.png", arguments: ["--open-results", "fotografiska"])
        let searched = try cli.run(["search", "fotografiska", "--format", "geojson"])
        let names = ((jsonObject(searched.stdout) as? [String: Any])?["features"] as? [[String: Any]] ?? []).map {
            ($0["properties"] as? [String: Any])?["name"] as? String ?? ""
        }
        let opened = try #require(report["openedResults"] as? [[String: Any]])
        #expect(opened.map { $0["id"] as? String ?? "" } == featureIDs(searched.stdout))
        #expect(opened.count == 6)
        for (entry, name) in zip(opened, names) {
            #expect(entry["listed"] as? String == name)
            #expect(entry["popup"] as? String == name, "the popup of \(name): \(entry["text"] ?? "")")
            #expect((entry["text"] as? String)?.contains("Museum") == true, "\(entry)")
        }
        #expect(FileManager.default.fileExists(atPath: MapBrowser.artifacts.appendingPathComponent("map-served-search.png.popup.png").path))
        #expect((report["consoleErrors"] as? [String])?.isEmpty == true, "\(report["consoleErrors"] ?? "")")
        _ = server.stop()
    }

    @Test("100,000 organizations: the world view counts them all; a cluster click zooms to where it splits; a co-located group lists its organizations; search finds what the CLI finds")
    func hundredThousand() throws {
        let home = try TestPaths.temporaryDirectory()
        let path = home.path("hub.sqlite")
        let organizations = ClusterFixtures.organizations(count: 100_000, seed: 7)
        let store = try ClusterFixtures.importedStore(at: path, organizations)
        // A co-located group and the zoom at which it stands alone (its first zoom as a location).
        let index = try store.clusterIndex()
        let top = try store.clusters(west: -180, south: -90, east: 180, north: 90, zoom: index.separationZoom, groupLimit: .max)
        let group = try #require(top.items.filter { $0.item.kind == .colocatedGroup }.max { $0.item.count < $1.item.count })
        let groupZoom = min(18, max(group.item.zooms.lowerBound, 3))
        let place = group.organizations[0].coordinates
        let cli = CLIRunner(database: path, home: home.url.path)
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        let searched = "cluster club 4242"
        let report = try MapBrowser.run(server.baseURL + "/", screenshot: "map-served-100k.png",
                                        arguments: ["--click-cluster", "--open-group=\(place.latitude),\(place.longitude),\(groupZoom)",
                                                    "--search", searched])

        // The first view is the whole world, and its counts add up to every organization.
        let served = try #require(report["served"] as? [String: Any])
        #expect(served["organizations"] as? Int == 100_000, "\(served["organizations"] ?? "")")
        let clusters = try #require(report["clusters"] as? [String: Any])
        #expect((clusters["clusterCounts"] as? [Int] ?? []).reduce(0, +) + (clusters["singleMarkers"] as? Int ?? 0) == 100_000)
        // Each cluster's ring shows its clubs and museums, and together they are all of them.
        let rings = try Self.expectRings(report, server: server)
        let types = organizations.reduce(into: [String: Int]()) { $0[$1.type.rawValue, default: 0] += 1 }
        #expect(rings.clubs == types["club"] && rings.museums == types["museum"], "\(rings.clubs) clubs, \(rings.museums) museums vs \(types)")
        #expect(!rings.mixedSeen.isEmpty, "a ring of clubs and museums seen on the screenshot")

        // A click on a cluster zooms to its expansion zoom, where it has split: its box holds two or more
        // items, as the API answers at that zoom.
        let click = try #require(report["clusterClick"] as? [String: Any])
        let clicked = try #require(click["cluster"] as? [String: Any])
        let expansion = try #require(clicked["expansionZoom"] as? Int)
        #expect(click["zoom"] as? Int == expansion && click["mapZoom"] as? Int == expansion, "\(click["zoom"] ?? "") vs \(expansion)")
        let box = try #require(clicked["bbox"] as? [Double])
        let items = try #require(click["items"] as? [[String: Any]])
        #expect(!items.contains { $0["id"] as? String == clicked["id"] as? String }, "the cluster is gone")
        let inside = items.filter { item in
            let lat = item["lat"] as! Double, lon = item["lon"] as! Double
            return lat >= box[1] && lat <= box[3] && lon >= box[0] && lon <= box[2]
        }
        #expect(inside.count >= 2 && inside.reduce(0) { $0 + ($1["count"] as! Int) } >= clicked["count"] as! Int)
        let api = try server.get("/api/clusters?bbox=\(box[0]),\(box[1]),\(box[2]),\(box[3])&zoom=\(expansion)")
        #expect(Set(inside.map { $0["id"] as! String }) == Set(featureIDs(api.body)))

        // The co-located group lists its organizations by name; the first one opens.
        let listed = try #require(report["group"] as? [String: Any])
        #expect(listed["count"] as? Int == group.item.count)
        #expect(listed["names"] as? [String] == group.organizations.map(\.name))
        #expect(listed["ids"] as? [String] == group.organizations.map(\.stableID))
        #expect(listed["firstPopup"] as? String == group.organizations[0].name)

        // Search goes to the server, at any zoom: the same organizations as `hubgeo search`.
        let cliSearch = try cli.run(["search", searched, "--format", "geojson"])
        #expect((report["searches"] as? [String: [String]])?[searched] == featureIDs(cliSearch.stdout))
        #expect(!featureIDs(cliSearch.stdout).isEmpty)
        #expect((report["consoleErrors"] as? [String])?.isEmpty == true, "\(report["consoleErrors"] ?? "")")
        _ = server.stop()
    }
}

/// How many organizations of each type (`club`, `museum`) a GeoJSON FeatureCollection holds.
func exportedTypes(_ text: String) -> [String: Int] {
    var types: [String: Int] = [:]
    for feature in (jsonObject(text) as? [String: Any])?["features"] as? [[String: Any]] ?? [] {
        types[((feature["properties"] as? [String: Any])?["type"] as? String) ?? "", default: 0] += 1
    }
    return types
}

/// The legend's ring entry once the page has switched to its second language (map_browser.py --switch-language).
func dutchRingLegend(_ report: [String: Any]) -> String? {
    (report["language"] as? [String: Any])?["ringLegend"] as? String
}
