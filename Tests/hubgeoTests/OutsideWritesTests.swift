import Foundation
@testable import HubGeoHTTP
import HubGeoTestSupport
@testable import HubGeoTiles
import Testing

/// Another SQLite client writes table organization after an import (issue 39, item 9): the
/// import's record of its rows (the stored cluster index, the counts of its `import_run` row)
/// no longer holds, and `tiles`, `/tiles/`, `/api/clusters`, `stats` and `/api/stats` all show
/// the rows as they are (``OrganizationWrites``), never the deleted museums as clubs.
@Suite("organizations written by another program", .serialized)
struct OutsideWritesTests {
    /// The organizations a zoom-0 tile counts (`count`, `museums`), and the organization features without an id.
    static func zoom0(_ features: [VectorTileTests.Feature]) -> (organizations: Int, museums: Int, withoutID: Int) {
        var organizations = 0, museums = 0, withoutID = 0
        for feature in features {
            organizations += feature.count
            museums += feature.properties["museums"] as? Int ?? (feature.properties["type"] as? String == "museum" ? 1 : 0)
            if feature.layer == TileLayers.organizations && feature.id.isEmpty { withoutID += 1 }
        }
        return (organizations, museums, withoutID)
    }

    /// Decodes one MVT with mapbox-vector-tile.
    static func decode(_ bytes: [UInt8], in home: TemporaryDirectory) throws -> [VectorTileTests.Feature] {
        var bytes = bytes
        if bytes.starts(with: [0x1F, 0x8B]) { bytes = try Gzip.decompress(bytes) }
        let file = home.url.appendingPathComponent("served.mvt")
        try Data(bytes).write(to: file)
        let single = try CommandRunner.run(try CITestSupport.pythonTool("python"), [
            TestPaths.supportDirectory.appendingPathComponent("vector_tiles.py").path, "tile", file.path])
        #expect(single.status == 0, "\(single.stderr)")
        let document = try JSONSerialization.jsonObject(with: single.stdout) as? [String: Any] ?? [:]
        return VectorTileTests.features((document["tiles"] as? [[String: Any]])?.first ?? [:])
    }

    @Test("sqlite3 deletes the 42 museums: tiles, /tiles/0/0/0.mvt, /api/clusters, stats and /api/stats count 89 clubs; the next import restores them and says why")
    func museumsDeletedBehindHubgeo() throws {
        let home = try TestPaths.temporaryDirectory()
        let path = home.path("hub.sqlite")
        let cli = CLIRunner(database: path, home: home.url.path)
        let before = try cli.run(["stats", "--format", "json"])  // the first use imports the built-in data
        #expect(StatisticsTests.Numbers(json: before.stdout).map { ($0.clubs, $0.museums) } ?? (0, 0) == (89, 42), "\(before.stdout)")
        // A server that has loaded the stored index before the rows change.
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        #expect(try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=0").status == 200)
        let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo-tests", connectTimeout: 5, totalTimeout: 30))
        let first = try client.get(URL(string: server.baseURL + "/tiles/0/0/0.mvt")!)
        #expect(Self.zoom0(try Self.decode([UInt8](first.body), in: home)).museums == 42)

        try StatisticsTests.sqlite(path, "DELETE FROM organization WHERE type = 'museum'")
        let rows = try StatisticsTests.bruteForce(path)
        #expect(rows.clubs == 89 && rows.museums == 0)

        // stats and /api/stats: the rows, not the import's record of them.
        try StatisticsTests.expectStatistics(cli, path, server: server, "after the deletion")

        // hubgeo tiles: 89 organizations, every one with its id and name.
        let written = try cli.run(["tiles", "-o", home.path("after.pmtiles")])
        #expect(written.status == 0 && written.stderr.contains(" 89 organizations"), "\(written.stderr)")
        let (archive, _) = try VectorTileTests.read("pmtiles", home.path("after.pmtiles"))
        let top = archive.keys.map(\.z).max() ?? -1
        for zoom in 0...top {
            let owned = archive.values.filter { $0.address.z == zoom }.flatMap(\.owned)
            let counted = Self.zoom0(owned)
            #expect(counted.organizations == 89 && counted.museums == 0 && counted.withoutID == 0, "zoom \(zoom): \(counted)")
        }

        // The server, which had loaded the stored index: /tiles/ and /api/clusters alike.
        let tile = try client.get(URL(string: server.baseURL + "/tiles/0/0/0.mvt")!)
        let served = Self.zoom0(try Self.decode([UInt8](tile.body), in: home))
        #expect(tile.status == 200 && served.organizations == 89 && served.museums == 0 && served.withoutID == 0, "\(served)")
        let api = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=0")
        let features = (jsonObject(api.body) as? [String: Any])?["features"] as? [[String: Any]] ?? []
        let counts = features.map { ($0["properties"] as? [String: Any])?["count"] as? Int ?? 1 }
        #expect(api.status == 200 && counts.reduce(0, +) == 89, "\(api.body.prefix(300))")
        // A later change shows too (the rebuilt index is not kept past it).
        try StatisticsTests.sqlite(path, "DELETE FROM organization WHERE id IN (SELECT id FROM organization LIMIT 9)")
        let again = try server.get("/api/clusters?bbox=-180,-90,180,90&zoom=0")
        let recount = ((jsonObject(again.body) as? [String: Any])?["features"] as? [[String: Any]] ?? [])
            .map { ($0["properties"] as? [String: Any])?["count"] as? Int ?? 1 }.reduce(0, +)
        #expect(recount == 80, "\(again.body.prefix(300))")
        try StatisticsTests.expectStatistics(cli, path, server: server, "after a second deletion")
        _ = server.stop()

        // The next import puts the data back, says why, and its record holds again.
        let reimport = try cli.run(["import"])
        #expect(reimport.status == 0 && reimport.stderr.contains("written by another program"), "\(reimport.stdout)\(reimport.stderr)")
        try StatisticsTests.expectStatistics(cli, path, server: nil, "after the import",
                                             expected: StatisticsTests.Numbers(json: before.stdout))
    }
}
