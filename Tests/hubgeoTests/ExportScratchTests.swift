import Foundation
import HubGeoDatabase
import HubGeoTestSupport
import Testing

/// A whole-table export larger than the records it keeps in memory puts them in order through a
/// scratch file in `$TMPDIR`: where that cannot be made, the export fails saying so, and writes nothing.
@Suite("Export scratch space")
struct ExportScratchTests {
    @Test func anUnusableTMPDIRFailsTheExportNamingItAndLeavesNoOutput() throws {
        let directory = try TestPaths.temporaryDirectory()
        // 20,000 organizations: about 8 MB of records, over the 4 MiB kept in memory.
        let store = try ExportMemoryTests.syntheticStore(count: 20_000, in: directory)
        let output = directory.path("out.geojson")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = directory.path("no-such-folder")
        let failed = try CommandRunner.run(try CommandRunner.hubgeo, ["export", "geojson", "--db", store.path, "-o", output],
                                           environment: environment)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("cannot create a scratch file in \(directory.path("no-such-folder")) (set TMPDIR to use another directory)"),
                "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { !$0.contains("hubgeo") || $0.hasSuffix(".sqlite") },
                "no temporary output left behind")

        // A folder that exists: the export goes through, and leaves nothing in it.
        let scratch = directory.path("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        environment["TMPDIR"] = scratch
        let written = try CommandRunner.run(try CommandRunner.hubgeo, ["export", "geojson", "--db", store.path, "-o", output],
                                            environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
        let features = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        #expect((features?["features"] as? [Any])?.count == 20_000)
    }
}
