import Foundation
import GRDB
@testable import HubGeoClusters
@testable import HubGeoDatabase
import HubGeoTestSupport
@testable import HubGeoTiles
import Testing

/// The tiles in process: the encoder keeps any text, one MVT id per feature of a layer, bounds with
/// an area, and a served tile that reads only the rows it lists and equals the archive's.
@Suite("vector tile encoding", .serialized)
struct TileEncodingTests {
    /// Attributes with control characters, which no import lets through: the encoder keeps any text.
    struct ControlAttributes: TileAttributes {
        static let name = "tab\tnul\u{0}bell\u{7}esc\u{1B} <&> \"q\" \u{202E}RTL"
        func organization(_ id: Int64) throws -> [TileProperty]? { [TileProperty("name", Self.name)] }
        func group(_ ids: ClusterIndex.OrganizationIDs) throws -> [TileProperty] { [] }
    }

    @Test("the encoder keeps control characters and every other text exact (mapbox-vector-tile reads it back)")
    func controlCharacters() throws {
        let index = try ClusterIndex([ClusterIndex.Organization(id: 1, latitude: 52, longitude: 5)])
        let tiles = ClusterTiles(index: index, museums: [0])
        let home = try TestPaths.temporaryDirectory()
        let bytes = try tiles.tile(TileAddress(z: 0, x: 0, y: 0)!, attributes: ControlAttributes())
        try Data(bytes).write(to: home.url.appendingPathComponent("one.mvt"))
        let single = try CommandRunner.run(try CITestSupport.pythonTool("python"), [
            TestPaths.supportDirectory.appendingPathComponent("vector_tiles.py").path, "tile", home.path("one.mvt")])
        let document = try JSONSerialization.jsonObject(with: single.stdout) as? [String: Any] ?? [:]
        let layers = (document["tiles"] as? [[String: Any]])?.first?["layers"] as? [String: [[String: Any]]] ?? [:]
        let features = layers.values.flatMap { $0 }
        #expect(features.count == 1 && (features.first?["properties"] as? [String: Any])?["name"] as? String == ControlAttributes.name,
                "\(single.stderr)")
        #expect(try tiles.tile(TileAddress(z: 1, x: 1, y: 1)!, attributes: ControlAttributes()).isEmpty)
    }

    @Test("bounds of one point are widened to an area inside the world, and any box with one is kept")
    func boundsWithArea() {
        var metadata = TileSetMetadata()
        metadata.bounds = (5.4, 51.4, 5.4, 51.4)
        #expect(metadata.bounds.east - metadata.bounds.west >= TileSetMetadata.minimumSide * 0.999)
        #expect(metadata.bounds.north - metadata.bounds.south >= TileSetMetadata.minimumSide * 0.999)
        #expect(abs(metadata.center.longitude - 5.4) < 1e-9 && abs(metadata.center.latitude - 51.4) < 1e-9)
        metadata.bounds = (180, 90, 180, 90)
        #expect(metadata.bounds.east == 180 && metadata.bounds.west < 180 && metadata.bounds.north == 90 && metadata.bounds.south < 90)
        metadata.bounds = (-3, 40, 7, 55)
        #expect(metadata.bounds == (-3, 40, 7, 55))
    }

    @Test("MVT ids are unique in a layer: points on ±180 and beside the antimeridian at zoom 0 carry theirs once")
    func uniqueFeatureIDs() throws {
        let index = try ClusterIndex([
            ClusterIndex.Organization(id: 1, latitude: 10, longitude: 180),
            ClusterIndex.Organization(id: 2, latitude: -30, longitude: -180),
            ClusterIndex.Organization(id: 3, latitude: 50, longitude: 179.5),
            ClusterIndex.Organization(id: 4, latitude: 0, longitude: 0),
        ])
        let tiles = ClusterTiles(index: index, museums: index.nodeCounts { _ in false })
        let home = try TestPaths.temporaryDirectory()
        for zoom in 0...2 {
            var all: [(TileAddress, [UInt8])] = []
            try tiles.forEachTile(zoom: zoom, attributes: ControlAttributes()) { all.append(($0, $1)) }
            for (address, bytes) in all {
                #expect(try tiles.tile(address, attributes: ControlAttributes()) == bytes)
                let file = home.url.appendingPathComponent("t.mvt")
                try Data(bytes).write(to: file)
                let decoded = try CommandRunner.run(try CITestSupport.pythonTool("python"), [
                    TestPaths.supportDirectory.appendingPathComponent("vector_tiles.py").path, "tile", file.path])
                let document = try JSONSerialization.jsonObject(with: decoded.stdout) as? [String: Any] ?? [:]
                let layers = (document["tiles"] as? [[String: Any]])?.first?["layers"] as? [String: [[String: Any]]] ?? [:]
                for (layer, features) in layers {
                    let ids = features.compactMap { $0["id"] as? Int }
                    #expect(Set(ids).count == ids.count, "\(address) \(layer): ids \(ids)")
                }
                // The ids as the bytes hold them (the decoder reads a missing id as 0): unique in each layer,
                // and at zoom 0 the copies a world away (of the points on and beside the antimeridian) have none.
                let raw = Self.featureIDs(bytes)
                for (layer, ids) in raw {
                    let present = ids.compactMap { $0 }
                    #expect(Set(present).count == present.count, "\(address) \(layer): ids \(ids)")
                }
                let rawCount: Int = raw.map { $0.ids.count }.reduce(0, +)
                let decodedCount: Int = layers.values.map { $0.count }.reduce(0, +)
                #expect(rawCount == decodedCount)
                if zoom == 0 { #expect(raw.contains { $0.ids.contains(nil) }, "\(raw)") }
            }
        }
    }

    /// Per layer of an MVT (in order), the id of each feature (field 1), nil where it has none: a
    /// reading of the protobuf wire format for the layers (field 3), their names (1) and features (2).
    static func featureIDs(_ bytes: [UInt8]) -> [(layer: String, ids: [UInt64?])] {
        func fields(_ bytes: ArraySlice<UInt8>) -> [(number: UInt64, varint: UInt64, bytes: ArraySlice<UInt8>)] {
            var position = bytes.startIndex
            func varint() -> UInt64 {
                var value: UInt64 = 0, shift: UInt64 = 0
                while position < bytes.endIndex {
                    let byte = bytes[position]
                    position += 1
                    value |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                return value
            }
            var found: [(UInt64, UInt64, ArraySlice<UInt8>)] = []
            while position < bytes.endIndex {
                let key = varint()
                switch key & 7 {
                case 0: found.append((key >> 3, varint(), []))
                case 2:
                    let length = Int(varint())
                    found.append((key >> 3, 0, bytes[position..<position + length]))
                    position += length
                case 1: position += 8
                case 5: position += 4
                default: return found
                }
            }
            return found
        }
        return fields(bytes[...]).filter { $0.number == 3 }.map { layer in
            let parts = fields(layer.bytes)
            let name = parts.first { $0.number == 1 }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            let ids = parts.filter { $0.number == 2 }.map { feature in fields(feature.bytes).first { $0.number == 1 }?.varint }
            return (name, ids)
        }
    }

    /// A store of `count` organizations at one point and 50 elsewhere, filled in SQL as an import
    /// leaves them (its cluster index stored, its record of the rows current).
    static func colocatedStore(count: Int, in directory: TemporaryDirectory) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("colocated-\(count).sqlite"))
        try store.database.write { db in
            try db.execute(sql: """
                INSERT INTO source_document (id, location) VALUES (1, 'root.level1.json');
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
                INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, has_level2,
                    level1_document, search_key, content_digest, sources_digest, geom)
                SELECT printf('%016x', n), CASE WHEN n % 5 = 0 THEN 'museum' ELSE 'club' END, 'Town ' || (n % 97),
                       'Club ' || ((n * 7919) % 1000003), 'c' || n, CASE WHEN n <= 50 THEN n ELSE 52 END, 5, 0,
                       1, 'club ' || n, n, n, MakePoint(5, CASE WHEN n <= 50 THEN n ELSE 52 END, 4326)
                FROM seq
                """, arguments: [count + 50])
            try db.execute(sql: "INSERT INTO import_run (source, imported_at, organizations, added, changed, removed) VALUES ('synthetic', '2026-01-01T00:00:00Z', ?, ?, 0, 0)",
                           arguments: [count + 50, count + 50])
            try ClusterIndexTable.store(try ClusterIndexTable.build(db), db, importRun: db.lastInsertedRowID)
            try OrganizationWrites.markImported(db)
        }
        return store
    }

    // A complexity guard (``ComplexityGuard``), not a timing: a tile of a co-located group lists 100
    // of its organizations, and reads only those (it read them all: 0.6 s at 100,000).
    @Test("a served tile of a co-located group of 32,000 takes less than 4 times the CPU time of one of 2,000 (reading every row: 16)")
    func servedTileReadsWhatItLists() throws {
        let home = try TestPaths.temporaryDirectory()
        var times: [Double] = []
        var answers: [[UInt8]] = []
        for count in [2_000, 32_000] {
            let store = try Self.colocatedStore(count: count, in: home)
            let cache = TileCache()
            let address = TileReference.owner(longitude: 5, latitude: 52, zoom: 14)
            let first = try store.tile(address, cache: cache)  // loads the index and the group's list once
            answers.append(first)
            times.append(ComplexityGuard.fastestCPUSeconds { _ = try? store.tile(address, cache: cache) })
            // The same bytes as an archive of the whole database gives that tile.
            let archivePath = home.path("colocated-\(count)")
            let writer = try TileFolderWriter(path: archivePath)
            _ = try store.writeTiles(to: writer, maximumZoom: 14)
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: archivePath + "/\(address).mvt"))) == first)
        }
        #expect(!answers[0].isEmpty && !answers[1].isEmpty)
        #expect(times[1] < 4 * times[0], "one tile: \(times[0]) s with 2,000 at the point, \(times[1]) s with 32,000")
    }
}
