import Foundation
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

@Suite("hubgeo validate: what a maintainer is told")
struct ValidatorTests {
    let validator = Validator(reader: DocumentReader(remoteFetch: nil))

    func validate(_ urls: URL...) -> ValidationReport {
        validator.validate(urls.map { .file($0) })
    }

    func upstream(_ name: String) -> URL { TestPaths.upstream.appendingPathComponent(name) }

    @Test func realDataFolder() throws {
        let report = validate(TestPaths.data)
        // The only errors: Level 2 files whose club is in no Level 1 file of the folder. The
        // templates are pairs (TemplateMin.level1.json declares the club of TemplateMin.level2.json):
        // each Level 2 file is checked against its own Level 1 file, not called an orphan.
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(Set(errors.map { ($0.file as NSString).lastPathComponent }) == [
            "IndividueelBO.level2.json", "XampleMax.level2.json", "XampleMin.level2.json",
        ])
        #expect(report.files.contains { $0.hasSuffix("/TemplateMin.level2.json") } && report.files.contains { $0.hasSuffix("/TemplateMax.level2.json") })
        #expect(errors.allSatisfy { $0.message.hasPrefix("orphan:") && $0.jsonPath == "club.idPlus" && $0.line != nil })
        func has(_ file: String, _ path: String, _ text: String) -> Bool {
            report.diagnostics.contains { $0.file.hasSuffix("/" + file) && $0.jsonPath == path && $0.message.contains(text) && $0.line != nil }
        }
        #expect(has("fcDenDungen.level2.json", "members[10].birthday", "unknown key \"birthday\" (it belongs inside \"optional\")"))
        #expect(has("fgWaalre.level2.json", "members[2].optional.expertises[1]", "did you mean \"Black & white\"?"))
        #expect(has("fkGestel.level2.json", "members[6].optional.expertises[1]", "did you mean \"Nature\"?"))
        #expect(has("museums.level1.json", "museums[3].optional.remark[2].language", "language \"FR\" is not in Level 0"))
        #expect(has("museums.level1.json", "museums[9].optional.wikipedia", "empty string where a URL is expected"))
        // A pair is named on both sides: both organizations, both places.
        #expect(has("clubsNL16.level1.json", "clubs[69].coordinates",
                    "coordinates of club Fotocollectief 2020 (Vught) (\(TestPaths.data.path)/clubsNL16.level1.json:1876) are identical to those of club Fotocollectief ISO 2016 (Den Bosch) (\(TestPaths.data.path)/clubsNL16.level1.json:366)"))
        #expect(has("clubsNL03.level1.json", "clubs[6].optional.remark[0].value", "leading or trailing spaces"))
        #expect(has("root.level0.json", "expertises[0].dateAdded", "unknown key"))
        #expect(report.files.count > 30)
        #expect(report.level0Sources.contains { $0.hasSuffix("Data/root.level0.json") })
        #expect(report.failed(strict: false))
    }

    @Test func embeddedDataGivesTheSameFindingsAsTheTree() {
        let report = validator.validate([.embedded(EmbeddedData.rootName)])
        #expect(report.organizations == 131)
        #expect(report.errorCount == 5)
    }

    @Test(arguments: [
        ("Level1/garbage.level1.json", 1, "malformed JSON (column 1): unexpected character 'T'"),
        ("Level1/truncated.level1.json", 10, "malformed JSON"),
        ("Level2/garbage.level2.json", 1, "malformed JSON"),
        ("Level0/garbage.level0.json", 1, "malformed JSON"),
        ("Level2/missingIdPlus.level2.json", 2, "required key \"idPlus\" is missing"),
        ("Level0/expertiseMissingIdString.level0.json", 4, "expertise has no idString"),
    ])
    func upstreamBrokenFixturesAreErrorsWithLines(_ name: String, _ line: Int, _ text: String) throws {
        let report = validate(upstream(name))
        let error = try #require(report.diagnostics.first { $0.severity == .error })
        #expect(error.file == upstream(name).path)
        #expect(error.line == line)
        #expect(error.message.contains(text), "\(error)")
    }

    @Test func includeCycleShowsTheChainAtTheIncludingLine() throws {
        let report = validate(upstream("Level1/recursionA.level1.json"))
        let error = try #require(report.diagnostics.first { $0.severity == .error })
        #expect(error.file.hasSuffix("recursionB.level1.json"))
        #expect(error.jsonPath == "level1Header.level1URLIncludes[0]")
        #expect(error.line == 4)
        #expect(error.message.contains("include cycle: ") && error.message.contains("recursionA.level1.json -> "))
        #expect(report.organizations == 1, "the rest of the tree is still checked")
    }

    @Test func upstreamLevel0LanguagesAndEmptyFile() {
        let language = validate(upstream("Level0/language.level0.json"))
        #expect(language.errorCount == 0)
        // Codes compare without case (the app stores them in lower case): "ur" is no problem, "UR" after it a repeat.
        #expect(!language.diagnostics.contains { $0.message.contains("should be written") })
        #expect(language.diagnostics.contains { $0.message.contains("language UR is listed again") })
        let empty = validate(upstream("Level0/empty.level0.json"))
        #expect(empty.diagnostics.map(\.message) == ["the file defines no languages and no expertises"])
        #expect(validate(upstream("Level0/languages.level0.json")).diagnostics.isEmpty)
    }

    @Test func cleanUpstreamLevel1FilesPass() {
        for name in ["XampleMax", "XampleMin", "clubTemplates", "museumsTest", "IncludeParent"] {
            let report = validate(upstream("Level1/\(name).level1.json"))
            #expect(report.diagnostics.isEmpty, "\(name): \(report.diagnostics)")
        }
    }

    @Test func recordProblemsAreErrorsAndDoubtsAreWarnings() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", """
            {"level1Header": {"level1URL": "ftp://example.org/root.level1.json"},
             "clubs": [
              {"idPlus": {"town": "Town", "fullName": "Good Club", "nickName": "good"},
               "coordinates": {"latitude": 51.0, "longitude": 5.0},
               "optional": {"website": "", "wikipedia": "www.example.org/wiki", "remark": [{"language": "XX", "value": "hi"}],
                            "webiste": "https://typo.example"}},
              {"idPlus": {"town": "Town", "fullName": "Good Club", "nickName": "again"},
               "coordinates": {"latitude": 52.0, "longitude": 5.0}},
              {"idPlus": {"town": " Town", "fullName": "Twin Club", "nickName": "twin"},
               "coordinates": {"latitude": 51.00002, "longitude": 5.00001}},
              {"idPlus": {"town": "Nowhere", "fullName": "Null Island Club", "nickName": "zero"},
               "coordinates": {"latitude": 0, "longitude": 0}, "birthday": "1970-01-01"},
              {"idPlus": {"town": "Far", "fullName": "Far Club", "nickName": "far"},
               "coordinates": {"latitude": 91, "longitude": 0}}
             ]}
            """)
        let report = validate(root)
        func find(_ path: String) -> Diagnostic? { report.diagnostics.first { $0.jsonPath == path } }
        #expect(find("level1Header.level1URL")?.message.contains("is not an http(s) URL") == true)
        #expect(find("clubs[0].optional.website")?.message.contains("empty string where a URL is expected") == true)
        #expect(find("clubs[0].optional.wikipedia")?.message.contains("not an http(s) URL") == true)
        #expect(find("clubs[0].optional.remark[0].language")?.message.contains("language \"XX\" is not in Level 0") == true)
        #expect(find("clubs[0].optional.webiste")?.message.contains("did you mean \"website\"?") == true)
        let duplicate = try #require(find("clubs[1]"))
        #expect(duplicate.severity == .error && duplicate.message.contains("is declared again") && duplicate.line == 7)
        #expect(find("clubs[2].idPlus.town")?.message.contains("leading or trailing spaces") == true)
        let near = try #require(find("clubs[2].coordinates"))
        #expect(near.severity == .warning && near.message.contains("m from those of club Good Club (Town)"))
        #expect(find("clubs[3].coordinates")?.message.contains("(0, 0)") == true)
        #expect(find("clubs[3].birthday")?.message.contains("unknown key") == true)
        let far = try #require(find("clubs[4].coordinates.latitude"))
        #expect(far.severity == .error && far.message.contains("outside [-90, 90]") && far.line == 14)
        #expect(report.errorCount == 2)
    }

    @Test func level2NearMissAndOrphanAreErrors() throws {
        let directory = try TestPaths.temporaryDirectory()
        try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5),
        ]))
        try directory.write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "town", fullName: "The  Club", nickName: "theClub", latitude: 51, longitude: 5),
            members: #"[{"name": {"givenName": "Ann", "infixName": "", "familyName": "A"}, "optional": {"expertises": ["Landscapes"], "level3URL": "https://x.example"}}]"#))
        try directory.write("stray.level2.json", Level1Builder.level2(
            club: .init(town: "TOWN", fullName: "The Club", nickName: "stray", latitude: 51, longitude: 5)))
        let report = validate(directory.url)
        let nearMiss = try #require(report.diagnostics.first { $0.file.hasSuffix("theClub.level2.json") && $0.severity == .error })
        #expect(nearMiss.message.contains("differ only by case or spaces"))
        let orphan = try #require(report.diagnostics.first { $0.file.hasSuffix("stray.level2.json") && $0.severity == .error })
        #expect(orphan.message.contains("differs only by case or spaces"))
        #expect(report.diagnostics.contains { $0.message.contains("expertise \"Landscapes\" is not in Level 0; did you mean \"Landscape\"?") })
    }

    @Test func duplicateKeysAreWarnedWithBothLines() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", """
            {"clubs": [{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"},
              "coordinates": {"latitude": 1, "longitude": 2},
              "coordinates": {"latitude": 3, "longitude": 4}}]}
            """)
        let report = validate(root)
        let warning = try #require(report.diagnostics.first { $0.jsonPath == "clubs[0].coordinates" })
        #expect(warning.line == 3 && warning.message == "duplicate key \"coordinates\" (first on line 2); the last one counts")
    }

    @Test func missingFileAndFolderWithoutRoot() throws {
        let directory = try TestPaths.temporaryDirectory()
        let missing = validate(directory.url.appendingPathComponent("nope.level1.json"))
        #expect(missing.errorCount == 1 && missing.diagnostics[0].message.contains("no such file"))
        try directory.write("a.level2.json", Level1Builder.level2(club: .init(town: "T", fullName: "F", nickName: "a", latitude: 1, longitude: 1)))
        let folder = validate(directory.url)
        #expect(folder.errorCount == 0)
        #expect(folder.diagnostics.contains { $0.message.contains("no Level 1 root next to this file") })
    }

    @Test func levenshtein() {
        #expect(Levenshtein.distance("kitten", "sitting") == 3)
        #expect(Levenshtein.distance("", "abc") == 3)
        #expect(Levenshtein.nearest(to: "Landscapes", in: ["Landscape", "Portrait"]) == "Landscape")
        #expect(Levenshtein.nearest(to: "xyz", in: ["Landscape"]) == nil)
    }

    @Test func lineLookupByJSONPath() throws {
        let positions = try #require(DocumentPositions(Data("{\n\"a\": [\n {\"b\": 1,\n  \"c\": {\"d\": 2}}\n]\n}".utf8)))
        #expect(positions.span(at: "a")?.line == 2)
        #expect(positions.span(at: "a[0]")?.line == 3)
        #expect(positions.span(at: "a[0].c.d")?.line == 4)
        #expect(positions.span(at: "a[0].missing")?.line == 3)
        #expect(positions.span(at: "a[7]")?.line == 2)
        #expect(positions.span(at: "missing")?.line == 1, "a missing top-level key: the document's opening brace")
    }
}

/// Files that upstream keeps on purpose: an empty placeholder Level 1 file, a template pair.
@Suite("hubgeo validate: placeholders and template pairs")
struct ValidatorPlaceholderTests {
    @Test func emptyPlaceholderIsAtMostAWarningAndTemplatePairsAreNoOrphans() throws {
        let directory = try TestPaths.temporaryDirectory()
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: directory.url.appendingPathComponent(name)) }
        let waalre = Level1Builder.Entry(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46)
        let template = Level1Builder.Entry(town: "Amsterdam", fullName: "Template Club", nickName: "TemplateMin", latitude: 52.37, longitude: 4.89)
        let placeholder = #"{"level1Header": {"level1URL": "https://example.org/clubsBE.level1.json"}, "clubs": []}"#
        try write("root.level1.json", Level1Builder.level1(clubs: [waalre], includes: ["https://example.org/clubsLU.level1.json"]))
        try write("clubsLU.level1.json", placeholder)                      // included: fine
        try write("clubsBE.level1.json", placeholder)                      // not included: its own root
        try write("TemplateMin.level1.json", Level1Builder.level1(clubs: [template]))
        try write("TemplateMin.level2.json", Level1Builder.level2(club: template))
        var other = template
        other.fullName = "Nobody's Club"
        try write("Orphan.level2.json", Level1Builder.level2(club: other))
        let report = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(directory.url)])
        let mine = report.diagnostics.map { "\(($0.file as NSString).lastPathComponent): \($0.severity.rawValue): \($0.message)" }
        #expect(!mine.contains { $0.hasPrefix("clubsLU.level1.json") }, "\(mine)")
        #expect(mine.contains("clubsBE.level1.json: warning: no clubs or museums yet (a placeholder: fine when a tree includes it)"), "\(mine)")
        #expect(!mine.contains { $0.hasPrefix("TemplateMin.level2.json") && $0.contains("error") }, "\(mine)")
        #expect(report.files.contains { $0.hasSuffix("/TemplateMin.level2.json") })
        #expect(mine.contains { $0.hasPrefix("Orphan.level2.json: error: orphan:") }, "\(mine)")
        #expect(report.diagnostics.filter { $0.severity == .error }.count == 1, "\(mine)")

        // The pair is really checked: a broken member of the template's Level 2 file is reported there.
        try write("TemplateMin.level2.json", Level1Builder.level2(club: template, members: #"[{"name": {"givenName": "A"}}]"#))
        let again = Validator(reader: DocumentReader(remoteFetch: nil)).validate([.file(directory.url)])
        #expect(again.diagnostics.contains {
            $0.file.hasSuffix("/TemplateMin.level2.json") && $0.severity == .error && $0.jsonPath.hasPrefix("members[0]")
        }, "\(again.diagnostics)")
    }
}
