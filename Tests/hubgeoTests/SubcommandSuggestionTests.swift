import Foundation
import HubGeoTestSupport
import Testing

@Suite("A mistyped subcommand, run as a user would")
struct SubcommandSuggestionTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
    }

    @Test(arguments: [
        (["neer", "51", "5"], "near"),
        (["valdiate"], "validate"),
        (["exprot", "geojson"], "export"),
        (["Search", "Waalre"], "search"),
    ])
    func aNearMissNamesTheSubcommandAndExits64(_ arguments: [String], _ meant: String) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: Unknown subcommand '\(arguments[0])'. Did you mean '\(meant)'?"))
        #expect(result.stderr.contains("Usage:"))
        #expect(result.stdout.isEmpty)
        // A usage error never gets as far as the database.
        #expect(!FileManager.default.fileExists(atPath: home.path("hub.sqlite")))
    }

    @Test func aWordLikeNoSubcommandGetsNoGuess() throws {
        let result = try cli.run(["xyzzy", "51", "5"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
        #expect(!result.stderr.contains("Did you mean"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aMistypedOptionKeepsTheParsersOwnSuggestion() throws {
        let result = try cli.run(["near", "51.4", "5.4", "--kn", "20"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unknown option '--kn'. Did you mean '--km'?"))
        #expect(!result.stderr.contains("Unknown subcommand"))
    }
}
