import Foundation
import HubGeoTestSupport
import Testing

/// `hubgeo map` never writes a page too big for a browser: past `--max-organizations` it refuses,
/// writes nothing and points to `hubgeo serve`.
@Suite("map page size limit")
struct MapSizeLimitTests {
    @Test("more organizations than --max-organizations are refused with nothing written; up to it the page is written")
    func limit() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let page = home.path("map.html")
        let refused = try cli.run(["map", "-o", page, "--max-organizations", "130"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("131 organizations are more than one page holds well (--max-organizations 130)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hubgeo serve") && refused.stderr.contains("Nothing was written"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page))
        // A selection within the limit is written, whatever the size of the database.
        let museums = try cli.run(["map", "-o", page, "--max-organizations", "130", "--type", "museum"])
        #expect(museums.status == 0 && museums.stderr.contains("42 organizations"), "\(museums.stderr)")
        let all = try cli.run(["map", "-o", page, "--max-organizations", "131"])
        #expect(all.status == 0 && all.stderr.contains("131 organizations"), "\(all.stderr)")
        #expect(try cli.run(["map", "-o", page, "--max-organizations", "0"]).status == 64)
        // The default holds the built-in data.
        #expect(try cli.run(["map", "-o", page]).status == 0)
    }
}
