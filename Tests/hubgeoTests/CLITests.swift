import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

@Suite("hubgeo command line, run as a user would")
struct CLITests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
    }

    @Test func nearEindhovenImportsTheEmbeddedDataAndListsNearestFirst() throws {
        let result = try cli.run(["near", "51.4", "5.4", "--km", "20"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("imported the built-in Photo Club Hub data (89 clubs, 42 museums"))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Name") == true && lines.first?.contains("Distance (km)") == true)
        let rows = lines.dropFirst(2)
        #expect(rows.contains { $0.contains("Fotogroep Waalre") && $0.contains("Waalre") })
        #expect(rows.contains { $0.contains("Pennings Foundation") && $0.contains("museum") && $0.contains("Eindhoven") })
        let distances = rows.compactMap { Double($0.split(separator: " ").last!) }
        #expect(distances.count == rows.count && distances.count > 20)
        #expect(distances == distances.sorted())
        #expect(distances.allSatisfy { $0 <= 20 })
        // Columns are aligned: every row as wide as the header rule, distance right-aligned.
        let ruleWidth = lines[1].count
        #expect(rows.allSatisfy { $0.count == ruleWidth })
    }

    @Test func jsonCarriesEveryFieldAndTheDistanceInMetres() throws {
        let result = try cli.run(["near", "51.39184", "5.46144", "--km", "1", "--format", "json"])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let waalre = try #require(array.first { $0["nickName"] as? String == "fgWaalre" })
        #expect(waalre["distanceMeters"] as? Double == 0)
        #expect(waalre["fullName"] as? String == "Fotogroep Waalre")
        #expect(waalre["type"] as? String == "club")
        #expect((waalre["memberCount"] as? Int ?? 0) > 0)
        #expect((waalre["remarks"] as? [String: String])?["NL"] != nil)
        #expect(waalre["website"] as? String == "https://www.fotogroepwaalre.nl")
        #expect(waalre["id"] as? String == OrganizationIdentity(town: "Waalre", fullName: "Fotogroep Waalre").stableID)
    }

    @Test func negativeCoordinatesAreValuesNotOptions() throws {
        let result = try cli.run(["near", "-33.87", "151.21", "--km", "10"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Australian Centre for Photography"))
        let crossing = try cli.run(["bbox", "-40", "140", "-30", "155", "--type", "museum"])
        #expect(crossing.status == 0)
        #expect(crossing.stdout.contains("Australian Centre for Photography"))
    }

    @Test(arguments: [
        ["near", "abc", "5.4", "--km", "20"],
        ["near", "51.4", "5.4", "--km", "-3"],
        ["near", "95", "5.4"],
        ["near", "51.4", "5.4", "--kn", "20"],
        ["near", "51.4"],
        ["bbox", "52", "5", "51", "6"],
        ["near", "51.4", "5.4", "--type", "musem"],
        ["nearby", "51.4", "5.4"],
    ])
    func malformedArgumentsExit64WithUsage(_ arguments: [String]) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
        #expect(result.stderr.contains("Usage:") || result.stderr.contains("hubgeo --help") || result.stderr.contains("Help:"))
        #expect(result.stdout.isEmpty)
    }

    @Test func searchShowAndStats() throws {
        let search = try cli.run(["search", "WAALRE"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("Fotogroep Waalre"))
        let show = try cli.run(["show", "fgWaalre"])
        #expect(show.status == 0)
        for expected in ["Fotogroep Waalre", "Members", "Remark (NL)", "Fotobond number", "embedded:fgWaalre.level2.json"] {
            #expect(show.stdout.contains(expected), "show lacks \(expected)")
        }
        let ambiguous = try cli.run(["show", "Fotogroep"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("matches"))
        let stats = try cli.run(["stats", "--format", "json"])
        #expect(stats.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["clubs"] as? Int == 89)
        #expect(object["museums"] as? Int == 42)
        #expect(object["databasePath"] as? String == home.path("hub.sqlite"))
    }

    /// `--version` alone is answered before the parser runs; with anything else, the parser answers.
    @Test func versionIsTheVersionAlone() throws {
        let alone = try cli.run(["--version"])
        #expect(alone.status == 0)
        #expect(alone.stdout == HubGeoVersion.current + "\n")
        #expect(alone.stderr.isEmpty)
        let parsed = try cli.run(["near", "--version"])
        #expect(parsed.status == 0)
        #expect(parsed.stdout == alone.stdout)
    }

    @Test func failedImportExits1NamesTheFileAndKeepsTheDatabase() throws {
        #expect(try cli.run(["import"]).status == 0)
        let before = try cli.run(["near", "51.4", "5.4", "--km", "20", "--format", "json"]).stdout
        let bad = try home.write("root.level1.json", "{\"clubs\": [\n  {\"idPlus\": ")
        let result = try cli.run(["import", bad.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(bad.path):2:"))
        #expect(result.stderr.contains("malformed JSON"))
        #expect(try cli.run(["near", "51.4", "5.4", "--km", "20", "--format", "json"]).stdout == before)
    }

    @Test func importReportsTheSyncAndOverrides() throws {
        let directory = try TestPaths.temporaryDirectory()
        try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5),
            .init(town: "Town", fullName: "Other Club", nickName: "other", latitude: 51.1, longitude: 5),
        ]))
        try directory.write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51.5, longitude: 5.5)))
        let first = try cli.run(["import", directory.url.path, "--verbose"])
        #expect(first.status == 0)
        #expect(first.stdout.contains("override  The Club (Town): coordinates: 51.0, 5.0 -> 51.5, 5.5"))
        #expect(first.stdout.contains("2 added, 0 changed, 0 removed"))
        try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5),
        ]))
        let second = try cli.run(["import", directory.url.path, "--verbose"])
        #expect(second.stdout.contains("removed   Other Club (Town)"))
        #expect(second.stdout.contains("0 added, 0 changed, 1 removed, 1 unchanged"))
    }
}
