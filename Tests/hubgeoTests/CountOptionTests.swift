import Foundation
@testable import HubGeoDatabase
@testable import HubGeoImport
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// Counts and offsets on the command line: bounded (a usage error naming the option, never an
/// overflow trap), and `--limit` means the same in every query (0: no rows).
@Suite("Counts, offsets and --limit on the command line")
struct CountOptionTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        cli.environment["HUBGEO_CONFIG"] = "/nonexistent"
        self.cli = cli
    }

    static let huge = String(Int.max)
    // The geocoder cases name an endpoint on loopback: should validation ever let them through,
    // they must not reach a real server.

    static let outOfRange: [(arguments: [String], option: String)] = [
        (["near", "51.4", "5.4", "--offset", huge], "--offset"),
        (["near", "51.4", "5.4", "--nearest", huge, "--offset", "1"], "--nearest"),
        (["near", "51.4", "5.4", "--nearest", "10", "--offset", huge], "--offset"),
        (["near", "51.4", "5.4", "--limit", huge], "--limit"),
        (["near", "51.4", "5.4", "--km", "20", "--offset", huge], "--offset"),
        (["near", "51.4", "5.4", "--nearest", "1000000001"], "--nearest"),
        (["bbox", "51.3", "5.3", "51.5", "5.6", "--offset", huge], "--offset"),
        (["bbox", "51.3", "5.3", "51.5", "5.6", "--limit", "1000000001"], "--limit"),
        (["search", "Foto", "--offset", huge], "--offset"),
        (["search", "Foto", "--limit", huge], "--limit"),
        (["localize", "--lang", "en", "--offline", "--max-requests", huge], "--max-requests"),
        (["localize", "--lang", "en", "--offline", "--progress-every", huge], "--progress-every"),
        (["localize", "--lang", "en", "--offline", "--progress-every", "0"], "--progress-every"),
        (["localize", "--lang", "en", "--request-interval", "1e300", "--nominatim-url", "http://127.0.0.1:1"], "--request-interval"),
        (["geocode", "51.4", "5.4", "--request-interval", "1e300", "--nominatim-url", "http://127.0.0.1:1"], "--request-interval"),
        (["validate", "--geocode", "--request-interval", "3601", "--nominatim-url", "http://127.0.0.1:1"], "--request-interval"),
    ]

    @Test func countsAndOffsetsOutOfRangeAreUsageErrorsNamingTheOption() throws {
        for (arguments, option) in Self.outOfRange {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "hubgeo \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("\(option) must be"), "hubgeo \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    @Test func theLargestCountsAndOffsetsWork() throws {
        for arguments in [["near", "51.4", "5.4", "--nearest", "1000000000", "--offset", "1000000000"],
                          ["near", "51.4", "5.4", "--km", "20", "--offset", "1000000000", "--limit", "1000000000"],
                          ["search", "Foto", "--offset", "1000000000"],
                          ["localize", "--lang", "en", "--offline", "--max-requests", "1000000000", "--progress-every", "1000000000"]] {
            let result = try cli.run(arguments + ["--format", "json"].filter { _ in arguments[0] != "localize" })
            #expect(result.status == 0, "hubgeo \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        let far = try rows(["near", "51.4", "5.4", "--nearest", "1000000000", "--offset", "130"])
        #expect(far.count == 1, "131 organizations in all: skipping 130 leaves the farthest")
    }

    @Test func settingsOutOfRangeFromTheEnvironmentAreErrorsNotCrashes() throws {
        var environment = cli
        environment.environment["HUBGEO_REQUEST_INTERVAL"] = "1e300"
        let interval = try environment.run(["geocode", "51.4", "5.4", "--nominatim-url", "http://127.0.0.1:1"])
        #expect(interval.status == 1)
        #expect(interval.stderr.contains("HUBGEO_REQUEST_INTERVAL \"1e300\" is not a number of seconds from 0 to 3600"), "\(interval.stderr)")

        let closed = try RefusingPort()
        var timeouts = cli
        timeouts.environment["HUBGEO_HTTP_TIMEOUT"] = "3600"
        timeouts.environment["HUBGEO_HTTP_CONNECT_TIMEOUT"] = "3600"
        let fetch = try timeouts.run(["validate", "http://127.0.0.1:\(closed.port)/root.level1.json"])
        #expect(fetch.status == 1, "\(fetch.stderr)")
        #expect(fetch.stdout.contains("Could not connect"), "\(fetch.stdout)\(fetch.stderr)")
        timeouts.environment["HUBGEO_HTTP_TIMEOUT"] = "1e300"
        let tooLong = try timeouts.run(["validate", "http://127.0.0.1:\(closed.port)/root.level1.json"])
        #expect(tooLong.status == 1 && tooLong.stderr.contains("HUBGEO_HTTP_TIMEOUT \"1e300\" is not a number of seconds"), "\(tooLong.stderr)")
    }

    @Test func theLibraryNearestSurvivesHugeCountsAndOffsets() throws {
        let store = try FirstUse.open(path: home.path("library.sqlite"), access: .readWrite).store
        let center = GeoPoint(latitude: 51.4, longitude: 5.4)
        #expect(try store.nearest(center, count: Int.max, filter: OrganizationFilter(offset: Int.max)).isEmpty)
        #expect(try store.nearest(center, count: Int.max, filter: OrganizationFilter(offset: 1)).count == 130)
    }

    /// The JSON rows a query prints.
    func rows(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try cli.run(arguments + ["--format", "json"])
        #expect(result.status == 0, "hubgeo \(arguments.joined(separator: " ")): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
                            "hubgeo \(arguments.joined(separator: " ")): \(result.stdout)")
    }

    @Test func limitMeansTheSameInEveryQuery() throws {
        let queries: [[String]] = [
            ["near", "51.4", "5.4"],                     // the default --nearest 10
            ["near", "51.4", "5.4", "--nearest", "5"],
            ["near", "51.4", "5.4", "--km", "20"],
            ["bbox", "51.3", "5.3", "51.5", "5.6"],
            ["search", "Foto"],
        ]
        for query in queries {
            let all = try rows(query)
            #expect(all.count >= 5, "\(query) has enough results to cut")
            #expect(try rows(query + ["--limit", "0"]).isEmpty, "\(query) --limit 0 prints no rows")
            let three = try rows(query + ["--limit", "3"])
            #expect(three.count == 3, "\(query) --limit 3 printed \(three.count)")
            #expect(three.map { $0["id"] as? String } == all.prefix(3).map { $0["id"] as? String }, "\(query): the first three")
            let page = try rows(query + ["--offset", "2", "--limit", "2"])
            #expect(page.map { $0["id"] as? String } == all.dropFirst(2).prefix(2).map { $0["id"] as? String }, "\(query): a page")
        }
    }

    @Test func theLibraryNearestHonoursTheFilterLimit() throws {
        let store = try FirstUse.open(path: home.path("library.sqlite"), access: .readWrite).store
        let center = GeoPoint(latitude: 51.4, longitude: 5.4)
        #expect(try store.nearest(center, count: 10).count == 10)
        #expect(try store.nearest(center, count: 10, filter: OrganizationFilter(limit: 0)).isEmpty)
        #expect(try store.nearest(center, count: 10, filter: OrganizationFilter(limit: 4)).count == 4)
        #expect(try store.nearest(center, count: 2, filter: OrganizationFilter(limit: 4)).count == 2)
    }
}
