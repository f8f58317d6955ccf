import ArgumentParser
import Testing
@testable import hubgeo

/// The query commands read from plain arguments (``PlainArguments``) without the parser: every
/// form either declined (the parser answers it) or read exactly as the parser reads it, each
/// property of the command and its option groups compared, defaults included.
@Suite("Plain arguments: the query commands read as the parser reads them, or left to it")
struct PlainArgumentsTests {
    /// Accepted by both. Negative numbers as `HubGeoCommand.main` hands them over (protected).
    static let accepted: [[String]] = [
        ["near", "51.4", "5.4"],
        ["near", "51.4", "5.4", "--km", "20"],
        ["near", "\u{2212}33.87", "151.21", "--nearest", "3"],
        ["near", "--km", "2.5", "51", "5"],
        ["near", "51", "5", "--km", "20", "--type", "club", "--limit", "3", "--offset", "1", "--format", "json",
         "--lang", "NL", "--nominatim-url", "http://127.0.0.1:9/", "--zoom", "10", "--db", "/tmp/a b.sqlite"],
        ["near", "1e1", "5", "--format", "geojson", "--limit", "0"],
        ["bbox", "51.3", "5.3", "51.5", "5.6"],
        ["bbox", "60", "170", "70", "\u{2212}170", "--type", "museum", "--format", "geojson", "--db", ""],
        ["search", "foto"],
        ["search", "help"],
        ["search", "Fotoclub Rooi", "--limit", "2", "--offset", "0", "--lang", "de"],
        ["show", "fgWaalre"],
        ["show", "fgWaalre", "--format", "json", "--lang", "fr", "--zoom", "3", "--db", "x.sqlite"],
        ["stats"],
        ["stats", "--format", "json", "--db", "hub.sqlite"],
    ]

    /// Declined: help, flags, other spellings, leftovers, and values the command refuses.
    static let declined: [[String]] = [
        [], ["near"], ["near", "51"], ["near", "51", "5", "6"], ["near", "91", "5"], ["near", "51", "181"],
        ["near", "nan", "5"], ["near", "51", "5", "--km", "20", "--nearest", "3"], ["near", "51", "5", "--km", "0"],
        ["near", "51", "5", "--km", "\u{2212}1"], ["near", "51", "5", "--nearest", "0"], ["near", "51", "5", "--help"],
        ["near", "51", "5", "-h"], ["near", "51", "5", "--km=20"], ["near", "51", "5", "--km", "20", "--km", "30"],
        ["near", "51", "5", "--bogus", "1"], ["near", "51", "5", "--type", "park"], ["near", "51", "5", "--format", "JSON"],
        ["near", "51", "5", "--zoom", "3"], ["near", "51", "5", "--lang", "xx-!"], ["near", "51", "5", "--limit", "\u{2212}1"],
        ["near", "51", "5", "--", "x"], ["near", "51", "5", "--db"], ["near", "51", "5", "--db", "--km"],
        ["near", "51", "5", "--version"], ["near", "51", "5", "--generate-completion-script", "bash"],
        ["bbox", "51.5", "5.3", "51.3", "5.6"], ["bbox", "51.3", "5.3", "51.5"], ["search"], ["search", "a", "b"],
        ["show"], ["stats", "x"], ["stats", "--format", "geojson"], ["neer", "51", "5"], ["import", "Data/root.level1.json"],
        ["help", "near"], ["--version"],
    ]

    @Test(arguments: accepted)
    func readAsTheParserReadsIt(_ arguments: [String]) throws {
        let plain = try #require(PlainArguments.command(arguments))
        let parsed = try HubGeoCommand.parseAsRoot(arguments)
        #expect(type(of: plain) == type(of: parsed))
        #expect(Self.properties(plain) == Self.properties(parsed))
    }

    @Test(arguments: declined)
    func leftToTheParser(_ arguments: [String]) {
        #expect(PlainArguments.command(arguments) == nil)
    }

    /// A property left unset would read as the parser's definition, not a value: its dump differs.
    @Test func anUnsetPropertyShowsInTheComparison() throws {
        let parsed = try HubGeoCommand.parseAsRoot(["stats"])
        #expect(Self.properties(StatsCommand()) != Self.properties(parsed))
    }

    /// Every stored property, nested groups included, as `dump` writes it.
    static func properties(_ command: Any) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }
}
