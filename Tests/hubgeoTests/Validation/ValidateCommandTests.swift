import Foundation
import HubGeoTestSupport
import Testing

@Suite("hubgeo validate on the command line")
struct ValidateCommandTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
    }

    @Test func dataFolderPrintsSortedDiagnosticsAndASummaryAndExits1() throws {
        let result = try cli.run(["validate", TestPaths.data.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last?.hasSuffix("3 errors, 104 warnings") == true, "\(lines.last ?? "")")
        #expect(lines.contains { $0.hasSuffix("fcDenDungen.level2.json:158:13: members[10].birthday: warning: unknown key \"birthday\" (it belongs inside \"optional\"); it is ignored [unknown-key]") })
        let diagnostics = lines.dropLast()
        #expect(diagnostics.allSatisfy { $0.contains(": error: ") || $0.contains(": warning: ") })
        #expect(!FileManager.default.fileExists(atPath: home.path("hub.sqlite")), "validate touches no database")
    }

    @Test func warningsPassUnlessStrict() throws {
        let file = try home.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "Club", nickName: "club", latitude: 51, longitude: 5, optional: #"{"website": ""}"#),
        ]))
        let plain = try cli.run(["validate", file.path])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("clubs[0].optional.website: warning: empty string where a URL is expected"))
        #expect(plain.stdout.contains("1 file, 1 organization: 0 errors, 1 warning"))
        #expect(try cli.run(["validate", "--strict", file.path]).status == 1)
        let json = try cli.run(["validate", "--format", "json", "--strict", file.path])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["warnings"] as? Int == 1 && object["errors"] as? Int == 0 && object["passed"] as? Bool == false)
        let diagnostic = try #require((object["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["jsonPath"] as? String == "clubs[0].optional.website")
        #expect(diagnostic["severity"] as? String == "warning")
        #expect(diagnostic["line"] as? Int == 4)
    }

    @Test("a file with CR, CRLF or LF line ends, pretty or minified: each finding on its own line and column")
    func lineEnds() throws {
        let pretty = Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "Club", nickName: "club", latitude: 51, longitude: 5),
            .init(town: "Town", fullName: "Other", nickName: "other", latitude: 52, longitude: 5, optional: #"{"website": ""}"#),
        ])
        for (name, end) in [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")] {
            let file = try home.write("\(name).level1.json", pretty.replacingOccurrences(of: "\n", with: end))
            let result = try cli.run(["validate", file.path])
            #expect(result.stdout.contains("\(name).level1.json:7:15: clubs[1].optional.website: warning: empty string"), "\(name): \(result.stdout)")
        }
    }

    @Test("a key holding a dot or a bracket is reported at its own line, with a path told apart from nested keys")
    func keyWithADot() throws {
        let file = try home.write("root.level1.json", """
            {"clubs": [
            {"coordinates.latitude": 1,
             "idPlus": {"town": "T", "fullName": "F", "nickName": "n"},
             "coordinates": {"latitude": 50, "longitude": 5},
             "optional": {"website": "https://a.example", "a[0]": 2}}]}
            """)
        let text = try cli.run(["validate", file.path])
        #expect(text.stdout.contains(#"root.level1.json:2:2: clubs[0]["coordinates.latitude"]: warning: unknown key "coordinates.latitude""#),
                "\(text.stdout)")
        #expect(text.stdout.contains(#"root.level1.json:5:47: clubs[0].optional["a[0]"]: warning: unknown key "a[0]""#), "\(text.stdout)")
        let json = try cli.run(["validate", "--format", "json", file.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let paths = (object["diagnostics"] as? [[String: Any]])?.compactMap { $0["jsonPath"] as? String }
        #expect(paths == [#"clubs[0]["coordinates.latitude"]"#, #"clubs[0].optional["a[0]"]"#])
        // SARIF: a key in brackets is a property, not an array element.
        let sarif = try cli.run(["validate", "--format", "sarif", file.path])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let kinds = results.compactMap { (($0["locations"] as? [[String: Any]])?.first?["logicalLocations"] as? [[String: Any]])?.first?["kind"] as? String }
        #expect(kinds == ["property", "property"])
    }

    @Test func level0OptionAndBadUsage() throws {
        let file = try home.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "Club", nickName: "club", latitude: 51, longitude: 5,
                  optional: #"{"remark": [{"language": "UR", "value": "x"}]}"#),
        ]))
        #expect(try cli.run(["validate", file.path]).stdout.contains("language \"UR\" is not in Level 0"))
        let withLevel0 = try cli.run(["validate", file.path, "--level0", TestPaths.upstream.appendingPathComponent("Level0/languages.level0.json").path])
        #expect(withLevel0.status == 0 && !withLevel0.stdout.contains("not in Level 0"))
        #expect(try cli.run(["validate", "--format", "xml"]).status == 64)
    }
}
