import Foundation
@testable import HubGeoJSON
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// The app's rules for reading: includes by their NAME.level1.json in the including file's folder,
/// an include of another name skipped (an error for validate), language codes without case, the
/// legacy root.level1.json against the tree; and every diagnostic's rule, line and column.
@Suite("Reading rules: includes by name, languages, legacy drift, rule ids and positions")
struct ReadingRulesTests {
    @Test("an include is read by its NAME.level1.json next to the including file, whatever its host and folder")
    func includeByBaseName() throws {
        let directory = try TestPaths.temporaryDirectory()
        _ = try directory.write("root.level1.json", Level1Builder.level1(includes: ["https://elsewhere.example/deep/path/child.level1.json"]))
        _ = try directory.write("child.level1.json", Level1Builder.level1(clubs: [.init(town: "T", fullName: "C", nickName: "c", latitude: 51, longitude: 5)]))
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .file(directory.url))
        #expect(data.organizations.map(\.fullName) == ["C"])
        #expect(DocumentLocation.level1IncludeName("https://h/a/clubsNL03.LEVEL1.Json?x=1") == "clubsNL03")
        for bad in ["", "clubsNL03.json", "https://h/a/clubs.NL03.level1.json", "https://h/a/.level1.json", "x.level1.json.bak", "https://h/a/"] {
            #expect(DocumentLocation.level1IncludeName(bad) == nil, "\(bad)")
        }
    }

    @Test("a remote tree reads its includes from its own folder on its own server, never the host an include names")
    func remoteIncludeStaysOnTheServer() throws {
        let directory = try TestPaths.temporaryDirectory()
        _ = try directory.write("root.level1.json", Level1Builder.level1(includes: ["https://elsewhere.invalid/other/child.level1.json"]))
        _ = try directory.write("child.level1.json", Level1Builder.level1(clubs: [.init(town: "T", fullName: "C", nickName: "c", latitude: 51, longitude: 5)]))
        let server = try LoopbackServer(root: directory.url)
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let result = try cli.run(["validate", server.url("/root.level1.json").absoluteString, "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try server.requests(path: "/child.level1.json").count == 1)
        // App versions from 3.1.0 on would fetch it on the other host: a warning says so.
        #expect(result.stdout.contains("\"include-elsewhere\""), "\(result.stdout)")
        // As written (app versions from 3.1.0 on), the include would leave for another host.
        let written = try cli.run(["validate", server.url("/root.level1.json").absoluteString, "--follow-include-urls"])
        #expect(written.status == 1 && written.stdout.contains("elsewhere.invalid"), "\(written.stdout)")
    }

    @Test("an include that is not NAME.level1.json: the import skips it with a warning, validate reports an error at it")
    func includeName() throws {
        let directory = try TestPaths.temporaryDirectory()
        _ = try directory.write("root.level1.json", Level1Builder.level1(
            clubs: [.init(town: "T", fullName: "Root club", nickName: "r", latitude: 50, longitude: 5)],
            includes: ["https://h/JSON/child.json", ""]))
        _ = try directory.write("child.json", Level1Builder.level1(clubs: [.init(town: "T", fullName: "C", nickName: "c", latitude: 51, longitude: 5)]))
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .file(directory.url))
        #expect(data.organizations.map(\.fullName) == ["Root club"])
        #expect(data.diagnostics.filter { $0.rule == .includeName }.map(\.jsonPath)
                == ["level1Header.level1URLIncludes[0]", "level1Header.level1URLIncludes[1]"])
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(directory.url)])
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.rule) == [.includeName, .includeName])
        #expect(errors.last?.message == "include \"\" does not name a NAME.level1.json file; it is skipped, as the app skips it")
        #expect(errors.allSatisfy { $0.line == 1 && $0.column != nil })
    }

    @Test("includes that app versions read differently are warnings: not https, or in another folder than level1URL")
    func includeVersions() throws {
        let json = try JSONParser().parse(Data("""
            {"level1Header": {"level1URL": "https://h/JSON/root.level1.json",
             "level1URLIncludes": ["https://h/JSON/a.level1.json", "b.level1.json", "http://h/JSON/c.level1.json", "https://other/x/d.level1.json"]}}
            """.utf8))
        let diagnostics = IncludeCheck.diagnostics(json, at: .file(URL(fileURLWithPath: "/t/root.level1.json")))
        #expect(diagnostics.map(\.rule) == [.includeNotHTTPS, .includeNotHTTPS, .includeElsewhere])
        #expect(diagnostics.map(\.jsonPath) == ["level1Header.level1URLIncludes[1]", "level1Header.level1URLIncludes[2]",
                                                "level1Header.level1URLIncludes[3]"])
    }

    @Test("language codes compare without case: no warning for lower case, a repeat in another case is a repeat")
    func languagesWithoutCase() throws {
        let (catalog, diagnostics) = Level0Catalog.read(try JSONParser().parse(Data("""
            {"languages": [{"isoCode": "en", "languageNameEN": "English", "isSupported": true}, {"isoCode": "NL"}, {"isoCode": "En"}]}
            """.utf8)), file: "root.level0.json")
        #expect(catalog.languages == ["EN", "NL"])
        #expect(diagnostics.map(\.rule) == [.duplicateLanguage])
        var walker = SchemaWalker(file: "x.level1.json", catalog: catalog)
        walker.walk(try JSONParser().parse(Data("""
            {"$schema": "https://hubgeo.invalid/schemas/level1.schema.json",
             "clubs": [{"optional": {"remark": [{"language": "nl", "value": "x"}, {"language": "De", "value": "y"}]}}]}
            """.utf8)), schema: .level1)
        #expect(walker.diagnostics.map(\.rule) == [.unknownLanguage], "\(walker.diagnostics)")
        var level0 = SchemaWalker(file: "root.level0.json", catalog: nil, isLevel0: true)
        level0.walk(try JSONParser().parse(Data(#"{"languages": [{"isoCode": "en", "isSupported": "yes"}]}"#.utf8)), schema: .level0)
        #expect(level0.diagnostics.map(\.rule) == [.wrongType])
    }

    @Test("the legacy root.level1.json against the tree: 129 against 131, 2 only in the legacy file, 4 only in the tree, 7 that differ")
    func legacyDrift() throws {
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(CITestSupport.realData)])
        let drift = report.diagnostics.filter { $0.rule == .legacyDrift }
        let summary = try #require(drift.first { $0.jsonPath.isEmpty })
        #expect(summary.message.hasSuffix("(129 organizations) and the root_.level1.json tree (131) disagree: 2 only in the legacy file, "
                                          + "4 only in the tree, 7 that differ"))
        #expect(drift.count { $0.message.contains("is in the legacy") } == 2)
        #expect(drift.count { $0.message.contains("is not in the legacy") } == 4)
        #expect(drift.count { $0.message.contains("differs from the tree") } == 7)
        #expect(drift.contains { $0.message.contains("Lianzhou Museum of Photography (Lianzhou) differs") && $0.message.contains("coordinates (24.78468, 112.38392) -> (31.24236, 121.45586)") })
        #expect(drift.allSatisfy { $0.severity == .warning })
    }

    @Test("every diagnostic has a rule, a line and a column; a span covers its value")
    func positions() throws {
        let directory = try TestPaths.temporaryDirectory()
        let json = try CITestSupport.copyRealData(into: directory.url)
        try CITestSupport.changeCopy(json)
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(json)])
        #expect(!report.diagnostics.isEmpty && report.diagnostics.allSatisfy { $0.line != nil && $0.column != nil })
        let quoted = try #require(report.diagnostics.first { $0.rule == .wrongType })
        #expect((quoted.line, quoted.column, quoted.endLine, quoted.endColumn) == (75, 17, 75, 39))
        let positions = try #require(DocumentPositions(Data("{\n  \"a\": [1, {\"b\": \"é\"}],\n  \"c\": {}\n}".utf8)))
        // `  "a": [1, {"b": "é"}],`: the key at 3, the object element at its first key (13), é one character.
        #expect(positions.span(at: "a") == .init(line: 2, column: 3, endLine: 2, endColumn: 22))
        #expect(positions.span(at: "a[1]") == .init(line: 2, column: 13, endLine: 2, endColumn: 21))
        #expect(positions.span(at: "a[1].b") == .init(line: 2, column: 13, endLine: 2, endColumn: 20))
        #expect(positions.span(at: "a[0]") == .init(line: 2, column: 9, endLine: 2, endColumn: 9))
        #expect(positions.span(at: "c.missing") == .init(line: 3, column: 3, endLine: 3, endColumn: 9))
    }

    @Test("docs/rules.md explains every rule id, with its level")
    func rulesDocumented() throws {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for rule in DiagnosticRule.allCases {
            let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(rule.id)` ") }
            #expect(row != nil, "\(rule.id) is not in docs/rules.md")
            #expect(row?.contains("| \(rule.defaultSeverity.rawValue) |") == true, "\(rule.id): \(row ?? "")")
        }
    }
}
