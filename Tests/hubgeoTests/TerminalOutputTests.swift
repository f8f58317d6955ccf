import Foundation
import HubGeoTestSupport
import Testing

/// A hostile Level 1 or Level 2 file never controls the terminal: every text hubgeo prints for
/// people shows control characters (and the bidirectional controls that hide or reorder text)
/// escaped, as `\u{1B}`; JSON output keeps the data exact; `validate` warns about each one.
@Suite("Terminal output: data never reaches the terminal raw")
struct TerminalOutputTests {
    /// A club whose website clears the screen, whose remark sets the window title, hides text and
    /// ends in DEL and NEL, whose maintainer e-mail writes the clipboard (OSC 52), whose Wikipedia
    /// link holds a C1 CSI, and whose full name reverses what follows it (U+202E). A second club's
    /// nickname holds an ESC: an import skips it, with a warning that says where.
    static let level1 = #"""
        {"level1Header": {"level1URLIncludes": []},
         "clubs": [
          {"idPlus": {"town": "Waalre", "fullName": "Fotogroep \u202Eeerlaaw", "nickName": "fgHostile"},
           "coordinates": {"latitude": 51.39, "longitude": 5.46},
           "optional": {
            "website": "https://example.org/\u001b[2J\u001b[H",
            "wikipedia": "https://example.org/\u009b31m",
            "maintainerEmail": "x@example.org\u001b]52;c;cHduZWQ=\u0007",
            "remark": [{"language": "EN", "value": "Nice club\u001b]0;pwned\u0007\u001b[8mhidden\u007f\u0085"}]}},
          {"idPlus": {"town": "Eindhoven", "fullName": "Fotoclub Escape", "nickName": "fc\u001b[31mEsc"},
           "coordinates": {"latitude": 51.44, "longitude": 5.47}}],
         "museums": []}
        """#

    /// The club's Level 2 file: a Dutch remark that retitles the window (an override `import`
    /// lists) and a member whose name erases the line.
    static let level2 = #"""
        {"club": {"idPlus": {"town": "Waalre", "fullName": "Fotogroep \u202Eeerlaaw", "nickName": "fgHostile"},
          "coordinates": {"latitude": 51.39, "longitude": 5.46},
          "optional": {"remark": [{"language": "NL", "value": "Club\u001b]2;title\u0007"}]}},
         "members": [{"name": {"givenName": "Eve\u001b[2K", "familyName": "Mallory"}}]}
        """#

    static let remarkEN = "Nice club\u{1B}]0;pwned\u{07}\u{1B}[8mhidden\u{7F}\u{85}"
    static let remarkNL = "Club\u{1B}]2;title\u{07}"
    static let website = "https://example.org/\u{1B}[2J\u{1B}[H"
    static let fullName = "Fotogroep \u{202E}eerlaaw"

    let home: TemporaryDirectory
    let cli: CLIRunner
    let data: URL

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        data = home.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(Self.level1.utf8).write(to: data.appendingPathComponent("root_.level1.json"))
        try Data(Self.level2.utf8).write(to: data.appendingPathComponent("fgHostile.level2.json"))
    }

    /// The characters that must never reach a terminal raw: C0 controls but the line feed, DEL,
    /// C1 controls, and the bidirectional embeddings, overrides and isolates.
    static func rawControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Runs hubgeo and checks that neither stdout nor stderr holds a raw control character.
    func run(_ arguments: [String], status: Int32 = 0) throws -> CLIRunner.Result {
        let result = try cli.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(Self.rawControls(result.stdout).isEmpty, "\(arguments) stdout: \(Self.rawControls(result.stdout))")
        #expect(Self.rawControls(result.stderr).isEmpty, "\(arguments) stderr: \(Self.rawControls(result.stderr))")
        return result
    }

    @Test("import, show, near and search print the hostile texts escaped")
    func humanOutputIsEscaped() throws {
        let imported = try run(["import", data.path])
        #expect(imported.stdout.contains(#"remark[NL]: (none) -> Club\u{1B}]2;title\u{7}"#), "\(imported.stdout)")
        #expect(imported.stderr.contains("clubs[1].idPlus.nickName"), "\(imported.stderr)")

        let shown = try run(["show", "fgHostile"])
        for expected in [#"Fotogroep \u{202E}eerlaaw"#, #"https://example.org/\u{1B}[2J\u{1B}[H"#, #"https://example.org/\u{9B}31m"#,
                         #"x@example.org\u{1B}]52;c;cHduZWQ=\u{7}"#, #"Nice club\u{1B}]0;pwned\u{7}\u{1B}[8mhidden\u{7F}\u{85}"#,
                         #"Club\u{1B}]2;title\u{7}"#] {
            #expect(shown.stdout.contains(expected), "\(expected) in \(shown.stdout)")
        }
        // The table stays aligned on what is shown: every value starts in the same column.
        let valueColumns = Set(shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { !$0.isEmpty }).map { line in
            line.firstRange(of: #/ {2,}\S/#).map { line.distance(from: line.startIndex, to: $0.upperBound) } ?? -1
        })
        #expect(valueColumns.count == 1, "\(shown.stdout)")

        for arguments in [["search", "Fotogroep"], ["near", "51.39", "5.46", "--km", "5"], ["bbox", "51", "5", "52", "6"]] {
            let table = try run(arguments)
            #expect(table.stdout.contains(#"Fotogroep \u{202E}eerlaaw"#), "\(arguments): \(table.stdout)")
        }
    }

    @Test("JSON output keeps the hostile texts exact")
    func jsonOutputIsExact() throws {
        _ = try run(["import", data.path])
        let shown = try cli.run(["show", "fgHostile", "--format", "json"])
        #expect(shown.status == 0)
        let organization = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(organization["fullName"] as? String == Self.fullName)
        #expect(organization["website"] as? String == Self.website)
        #expect(organization["remarks"] as? [String: String] == ["EN": Self.remarkEN, "NL": Self.remarkNL])
        #expect(!shown.stdout.contains("\u{1B}"), "JSON escapes ESC as \\u001b")

        let found = try cli.run(["search", "Fotogroep", "--format", "json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]])
        #expect(list.map { $0["fullName"] as? String } == [Self.fullName])
        let geojson = try cli.run(["show", "fgHostile", "--format", "geojson"])
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let properties = try #require(((collection["features"] as? [[String: Any]])?.first?["properties"]) as? [String: Any])
        #expect(properties["website"] as? String == Self.website)
    }

    @Test("validate warns about control characters in every text field, at its line and JSON path")
    func validateWarnsAboutControlCharacters() throws {
        let root = data.appendingPathComponent("root_.level1.json").path
        let level2 = data.appendingPathComponent("fgHostile.level2.json").path
        var result = try run(["validate", data.path], status: 1)  // the nickname with an ESC is an error
        // file:line:column: the column left out here (the JSON path says where).
        result.stdout = result.stdout.replacingOccurrences(of: #"(\.json:\d+):\d+: "#, with: "$1: ", options: .regularExpression)
        for expected in [
            "\(root):3: clubs[0].idPlus.fullName: warning: holds the bidirectional control character U+202E",
            "\(root):6: clubs[0].optional.website: warning: holds the control character U+001B",
            "\(root):7: clubs[0].optional.wikipedia: warning: holds the control character U+009B",
            "\(root):8: clubs[0].optional.maintainerEmail: warning: holds the control characters U+001B, U+0007",
            "\(root):9: clubs[0].optional.remark[0].value: warning: holds the control characters U+001B, U+0007, U+007F, U+0085",
            "\(level2):3: club.optional.remark[0].value: warning: holds the control characters U+001B, U+0007",
            "\(level2):4: members[0].name.givenName: warning: holds the control character U+001B",
        ] {
            #expect(result.stdout.contains(expected), "\(expected)\n\(result.stdout)")
        }
        // A name's control character is the import's error, said once.
        #expect(result.stdout.contains("\(root):10: clubs[1].idPlus.nickName: error: "), "\(result.stdout)")
        #expect(!result.stdout.contains("clubs[1].idPlus.nickName: warning"), "\(result.stdout)")

        let json = try cli.run(["validate", data.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let paths = (object["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["jsonPath"] as? String }
        #expect(paths.contains("clubs[0].optional.remark[0].value"))
    }

    @Test("an error that quotes the data is escaped too")
    func errorsAreEscaped() throws {
        let broken = home.url.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data(#"{"level1Header": {"level1URLIncludes": ["https://example.org/\u001b]0;owned\u0007.level1.json"]}, "clubs": []}"#.utf8)
            .write(to: broken.appendingPathComponent("root_.level1.json"))
        let failed = try run(["import", broken.path], status: 1)
        #expect(failed.stderr.contains(#"\u{1B}]0;owned\u{7}.level1.json does not exist"#), "\(failed.stderr)")
        let checked = try run(["validate", broken.path], status: 1)
        #expect(checked.stdout.contains(#"\u{1B}]0;owned\u{7}.level1.json does not exist"#), "\(checked.stdout)")
    }
}
