import Foundation
import HubGeoTestSupport
import Testing

/// A small run of the benchmark's data generator through the real import (`make bench` runs the
/// large ones): the generated Level 1 file and its GeoJSON twin hold the same organizations, and
/// all of them import and can be found.
@Suite("Benchmark generator smoke")
struct BenchmarkSmokeTests {
    @Test func generatedDataImportsCompletely() throws {
        let home = try TestPaths.temporaryDirectory()
        let script = TestPaths.packageRoot.appendingPathComponent("Benchmarks/generate.py").path
        let generated = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", script, "--count", "700", "--seed", "5", "--out", home.path("bench")],
                                              environment: ProcessInfo.processInfo.environment, timeout: 60)
        #expect(generated.status == 0, "\(generated.stderr)")
        let geojson = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home.path("bench/bench.geojson")))) as? [String: Any]
        let features = try #require(geojson?["features"] as? [[String: Any]])
        #expect(features.count == 700)

        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let imported = try cli.run(["import", home.path("bench/bench.level1.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("630 clubs, 70 museums"), "\(imported.stdout)")
        // Every generated point is found by a 1 km search around it (shared coordinates included).
        for feature in features.prefix(25) {
            let point = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let name = try #require((feature["properties"] as? [String: Any])?["name"] as? String)
            let near = try cli.run(["near", String(point[1]), String(point[0]), "--km", "1", "--format", "json"])
            let found = try #require(try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [[String: Any]])
            #expect(found.contains { $0["fullName"] as? String == name }, "\(name) at \(point)")
        }
    }

    /// `--shape scattered`: no towns (every organization a place of its own), points over the whole
    /// globe, a tenth of the remarks long ones with line feeds; all of it imports.
    @Test func scatteredShapeHasNoTownsAndImportsCompletely() throws {
        let home = try TestPaths.temporaryDirectory()
        let script = TestPaths.packageRoot.appendingPathComponent("Benchmarks/generate.py").path
        let generated = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", script, "--count", "1000", "--seed", "5", "--shape", "scattered",
                                               "--out", home.path("bench")],
                                              environment: ProcessInfo.processInfo.environment, timeout: 60)
        #expect(generated.status == 0, "\(generated.stderr)")
        let geojson = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home.path("bench/bench.geojson")))) as? [String: Any]
        let features = try #require(geojson?["features"] as? [[String: Any]])
        #expect(features.count == 1000)
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(Set(properties.compactMap { $0["town"] as? String }).count == 1000, "a town per organization")
        let remarks = properties.compactMap { $0["remark"] as? String }
        let long = remarks.filter { $0.utf8.count >= 1000 }
        #expect(remarks.count == 1000)
        #expect((60...140).contains(long.count), "\(long.count) long remarks of 1000")
        #expect(long.allSatisfy { $0.contains("\n") && $0.contains("&") && $0.contains("<") && $0.contains("é") })
        let latitudes = features.compactMap { (($0["geometry"] as? [String: Any])?["coordinates"] as? [Double])?[1] }
        #expect(latitudes.filter { $0 < -45 }.count > 100 && latitudes.filter { $0 > 45 }.count > 100, "the whole globe")

        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let imported = try cli.run(["import", home.path("bench/bench.level1.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let clubs = properties.filter { $0["type"] as? String == "club" }.count
        #expect(imported.stdout.contains("\(clubs) clubs, \(1000 - clubs) museums"), "\(imported.stdout)")
    }
}
