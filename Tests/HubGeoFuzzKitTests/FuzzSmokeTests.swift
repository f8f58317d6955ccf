import Foundation
@testable import HubGeoFuzzKit
import HubGeoTestSupport
import Testing

/// A short, fixed run of the fuzzer (`make fuzz` runs the long one): no target may crash.
@Suite("Fuzz smoke")
struct FuzzSmokeTests {
    @Test func mutatedRealFilesDoNotCrashAnyTarget() throws {
        let names = ["fgWaalre.level2.json", "clubsNL03.level1.json", "root.level0.json", "museumsDE.level1.json"]
        let seeds = try names.map { try Data(contentsOf: TestPaths.data.appendingPathComponent($0)) }
            + [Data(contentsOf: NominatimStandIn.standin.appendingPathComponent("brussel_nl.json"))]
        let statistics = FuzzRunner(seeds: seeds, seed: 42).run(iterations: 300, seconds: 20)
        #expect(statistics.inputs > 0)
        #expect(statistics.executions == statistics.inputs * FuzzTargets.all.count)
    }

    @Test func sameSeedSameInputs() {
        let runner = FuzzRunner(seeds: [Data(#"{"clubs": [{"coordinates": {"latitude": 51.4}}]}"#.utf8)], seed: 7)
        var first: [Data] = [], second: [Data] = []
        _ = runner.run(iterations: 50, seconds: 10) { first.append($1) }
        _ = runner.run(iterations: 50, seconds: 10) { second.append($1) }
        #expect(first == second && first.count == 50)
    }
}
