import Foundation
import HubGeoTestSupport
import Testing

/// What issue 39 found of the tiles beside their writers: every rule of go-pmtiles' `verify`
/// (Support/pmtiles_verify.py ports them), one MVT id per feature of a layer, a negative
/// `--max-zoom` quoted back, and a served tile that reads only the rows it lists.
@Suite("tile conformance", .serialized)
struct TileConformanceTests {
    /// The broken rules of `pmtiles verify` for the archive at `path` (empty when it passes).
    static func verify(_ path: String) throws -> [String] {
        let script = TestPaths.supportDirectory.appendingPathComponent("pmtiles_verify.py").path
        let result = try CommandRunner.run(try CITestSupport.pythonTool("python"), [script, path])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        return result.text.split(separator: "\n").map(String.init).filter { $0 != "ok" } + (result.status == 0 ? [] : ["exit \(result.status)"])
    }

    @Test("pmtiles verify: the built-in data, one organization (bounds of no area before), and one on a pole and the antimeridian")
    func pmtilesVerify() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        for (name, arguments) in [("all.pmtiles", []), ("one.pmtiles", ["--search", "Luminos"]), ("museums.pmtiles", ["--type", "museum"]),
                                  ("low.pmtiles", ["--max-zoom", "2"])] {
            let written = try cli.run(["tiles", "-o", home.path(name)] + arguments)
            #expect(written.status == 0, "\(name): \(written.stderr)")
            #expect(try Self.verify(home.path(name)) == [], "\(name)")
        }
        let one = try cli.run(["tiles", "-o", home.path("one.pmtiles"), "--search", "Luminos"])
        #expect(one.stderr.contains(" 1 organization."), "\(one.stderr)")
        // The corner of the world: widened inside it.
        let edge = home.path("edge")
        try FileManager.default.createDirectory(atPath: edge, withIntermediateDirectories: true)
        _ = try home.write("edge/root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Edge", fullName: "Edge club", nickName: "edge", latitude: 90, longitude: 180)]))
        let edgeCLI = CLIRunner(database: home.path("edge.sqlite"), home: home.url.path)
        #expect(try edgeCLI.run(["import", edge]).status == 0)
        #expect(try edgeCLI.run(["tiles", "-o", home.path("edge.pmtiles")]).status == 0)
        #expect(try Self.verify(home.path("edge.pmtiles")) == [])
    }

    @Test("--max-zoom -1 and other values out of range: what was typed and the range, exit 64")
    func negativeMaxZoom() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        for typed in ["-1", "25", "-30"] {
            let result = try cli.run(["tiles", "-o", home.path("x.pmtiles"), "--max-zoom", typed])
            #expect(result.status == 64 && result.stderr.contains("--max-zoom must be 0 to 24, not \(typed)"), "\(typed): \(result.stderr)")
        }
        let word = try cli.run(["tiles", "-o", home.path("x.pmtiles"), "--max-zoom", "ten"])
        #expect(word.status == 64 && word.stderr.contains("'ten'"), "\(word.stderr)")
        let km = try cli.run(["export", "geojson", "--near", "51.4", "5.4", "--km", "-3"])
        #expect(km.status == 64 && km.stderr.contains("--km must be a positive number"), "\(km.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path("x.pmtiles")))
    }
}
