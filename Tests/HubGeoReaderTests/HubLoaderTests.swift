import Foundation
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

@Suite("Loading Level 1 include trees and Level 2 files")
struct HubLoaderTests {
    let loader = HubLoader(reader: DocumentReader(remoteFetch: nil))

    func load(_ path: URL, level2: [URL] = []) throws -> HubData {
        try loader.load(root: .file(path), level2Files: level2.map { .file($0) })
    }

    @Test func embeddedTreeHas89ClubsAnd42Museums() throws {
        let data = try loader.load(root: .embedded(EmbeddedData.rootName))
        #expect(data.organizations.filter { $0.type == .club }.count == 89)
        #expect(data.organizations.filter { $0.type == .museum }.count == 42)
        #expect(data.level1Files.count == 12)
        #expect(data.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func dataFolderLoadsTheSameAsTheEmbeddedCopy() throws {
        let fromFolder = try load(TestPaths.data)
        let embedded = try loader.load(root: .embedded(EmbeddedData.rootName))
        #expect(fromFolder.organizations.map(\.identity) == embedded.organizations.map(\.identity))
        #expect(fromFolder.organizations.map(\.coordinates) == embedded.organizations.map(\.coordinates))
        #expect(fromFolder.level1Files.first?.hasSuffix("Data/root_.level1.json") == true)
    }

    @Test func legacyFlatRootLoads() throws {
        let data = try load(TestPaths.data.appendingPathComponent("root.level1.json"))
        #expect(data.level1Files.count == 1)
        #expect(data.organizations.filter { $0.type == .club }.count == 88)
        #expect(data.organizations.filter { $0.type == .museum }.count == 41)
    }

    @Test func level2FilesOfTheRealDataAreMergedAndOrphansReported() throws {
        let data = try loader.load(root: .embedded(EmbeddedData.rootName))
        let waalre = try #require(data.organizations.first { $0.nickName == "fgWaalre" })
        #expect(waalre.hasLevel2)
        #expect(waalre.level2Source == "embedded:fgWaalre.level2.json")
        #expect(waalre.members.count > 0)
        #expect(waalre.memberCount == waalre.members.filter(\.isCurrent).count)
        #expect(waalre.memberCount! < waalre.members.count, "former members are not counted")
        // IndividueelBO and the templates describe clubs that are in no Level 1 file.
        #expect(data.orphanLevel2Files.contains("embedded:IndividueelBO.level2.json"))
        #expect(data.orphanLevel2Files.contains("embedded:TemplateMax.level2.json"))
        #expect(data.diagnostics.contains { $0.file == "embedded:IndividueelBO.level2.json" && $0.message.contains("orphan") })
    }

    @Test func includeTreeFromUpstreamFixtures() throws {
        let data = try load(TestPaths.upstream.appendingPathComponent("Level1/IncludeParent.level1.json"))
        #expect(data.organizations.map(\.nickName) == ["IncludeChild"])
        #expect(data.level1Files.count == 2)
    }

    @Test func includeCycleIsReported() throws {
        let root = TestPaths.upstream.appendingPathComponent("Level1/recursionA.level1.json")
        #expect {
            try load(root)
        } throws: { error in
            guard case LoadError.includeCycle(let chain) = error else { return false }
            return chain.count == 3 && chain.first!.hasSuffix("recursionA.level1.json")
                && chain[1].hasSuffix("recursionB.level1.json") && chain.last!.hasSuffix("recursionA.level1.json")
        }
    }

    @Test(arguments: ["Level1/garbage.level1.json", "Level1/truncated.level1.json"])
    func malformedLevel1FailsWithFileAndLine(_ name: String) throws {
        let file = TestPaths.upstream.appendingPathComponent(name)
        do {
            _ = try load(file)
            Issue.record("a malformed file must fail the load")
        } catch let error as LoadError {
            guard case .malformedJSON(let path, let line, _, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == file.path)
            #expect(line >= 1)
            #expect(error.localizedDescription.hasPrefix(file.path + ":\(line):"))
        }
    }

    @Test func missingIncludeNamesTheIncludingFileAndPath() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(includes: ["https://example.org/JSON/gone.level1.json"]))
        #expect {
            try load(root)
        } throws: { error in
            guard case LoadError.missingInclude(let include, let from, let path) = error else { return false }
            return include.hasSuffix("gone.level1.json") && from == root.path && path == "level1Header.level1URLIncludes[0]"
        }
    }

    @Test func badRecordIsSkippedWithFileAndJSONPath() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Good", fullName: "Good Club", nickName: "good", latitude: 51, longitude: 5),
            .init(town: "Bad", fullName: "Bad Club", nickName: "bad", latitude: 95, longitude: 5),
        ]))
        let data = try load(root)
        #expect(data.organizations.map(\.nickName) == ["good"])
        let warning = try #require(data.diagnostics.first)
        #expect(warning.file == root.path)
        #expect(warning.jsonPath == "clubs[1].coordinates.latitude")
        #expect(warning.message.contains("outside [-90, 90]"))
        #expect(warning.description.contains("root.level1.json:"))
    }

    @Test func level2OverridesCoordinatesAndOptionalFieldsButNotLevel2URL() throws {
        let directory = try TestPaths.temporaryDirectory()
        let optional1 = """
            {"website": "https://old.example", "level2URL": "https://l1.example/club.level2.json",
             "wikipedia": "https://wiki.example/club", "nlSpecific": {"fotobondNumber": 1},
             "remark": [{"language": "NL", "value": "oud"}, {"language": "EN", "value": "old"}]}
            """
        let optional2 = """
            {"website": "https://new.example", "level2URL": "https://l2.example/elsewhere.json",
             "nlSpecific": {"fotobondNumber": 2}, "maintainerEmail": "keeper@example.org",
             "remark": [{"language": "NL", "value": "nieuw"}]}
            """
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5, optional: optional1),
        ]))
        try directory.write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 52.5, longitude: 6.25, optional: optional2),
            members: """
                [{"name": {"givenName": "Ann", "infixName": "", "familyName": "Active"}},
                 {"name": {"givenName": "Bob", "infixName": "de", "familyName": "Former"}, "optional": {"status": {"isFormerMember": true}}}]
                """))
        let club = try #require(try load(root).organizations.first)
        #expect(club.coordinates == GeoPoint(latitude: 52.5, longitude: 6.25))
        #expect(club.website == "https://new.example")
        #expect(club.level2URL == "https://l1.example/club.level2.json", "level2URL is never overruled")
        #expect(club.wikipedia == "https://wiki.example/club", "an absent Level 2 field keeps the Level 1 value")
        #expect(club.fotobondNumber == 2)
        #expect(club.maintainerEmail == "keeper@example.org")
        #expect(club.remarks == [LocalizedRemark(language: "EN", value: "old"), LocalizedRemark(language: "NL", value: "nieuw")])
        #expect(club.memberCount == 1)
        #expect(Set(club.overrides.map(\.field)) == ["coordinates", "website", "nlSpecific.fotobondNumber", "maintainerEmail", "remark[NL]"])
        let moved = try #require(club.overrides.first { $0.field == "coordinates" })
        #expect(moved.level1Value == "51.0, 5.0")
    }

    @Test func orphanLevel2FileIsReportedNotCreated() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5),
        ]))
        let orphan = try directory.write("stray.level2.json", Level1Builder.level2(
            club: .init(town: "Elsewhere", fullName: "Unknown Club", nickName: "stray", latitude: 50, longitude: 4)))
        let data = try load(root, level2: [orphan])
        #expect(data.organizations.count == 1)
        #expect(data.orphanLevel2Files == [orphan.path])
        #expect(data.diagnostics.contains { $0.file == orphan.path && $0.message.contains("orphan") })
    }

    @Test func level2ThatDiffersOnlyByCaseIsNotAppliedAndSaysWhy() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51, longitude: 5),
        ]))
        try directory.write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "town", fullName: "The  Club", nickName: "theClub", latitude: 50, longitude: 4)))
        let data = try load(root)
        #expect(data.organizations.first?.coordinates == GeoPoint(latitude: 51, longitude: 5))
        #expect(data.diagnostics.contains { $0.message.contains("differ only by case or spaces") })
    }

    @Test func upstreamLevel2WithoutIdPlusIsIgnoredWithAWarning() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Amsterdam", fullName: "Some Club", nickName: "missingIdPlus", latitude: 52.37312, longitude: 4.89383),
        ]))
        try FileManager.default.copyItem(at: TestPaths.upstream.appendingPathComponent("Level2/missingIdPlus.level2.json"),
                                         to: directory.url.appendingPathComponent("missingIdPlus.level2.json"))
        let data = try load(root)
        #expect(data.organizations.first?.hasLevel2 == false)
        #expect(data.diagnostics.contains { $0.jsonPath == "club.idPlus" && $0.message.contains("is missing") })
    }

    @Test func malformedLevel2FailsTheLoad() throws {
        let directory = try TestPaths.temporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "garbage", latitude: 51, longitude: 5),
        ]))
        try FileManager.default.copyItem(at: TestPaths.upstream.appendingPathComponent("Level2/garbage.level2.json"),
                                         to: directory.url.appendingPathComponent("garbage.level2.json"))
        #expect {
            try load(root)
        } throws: { error in
            guard case LoadError.malformedJSON(let file, _, _, _) = error else { return false }
            return file.hasSuffix("garbage.level2.json")
        }
    }

    @Test func level1RootOverHTTPLoadsItsIncludesThroughLibcurl() throws {
        let directory = try TestPaths.temporaryDirectory()
        let server = try LoopbackServer(root: directory.url, lifetime: 30)
        defer { server.stop() }
        try directory.write("root.level1.json", Level1Builder.level1(includes: [
            server.url("/clubs.level1.json").absoluteString, "museums.level1.json",
        ]))
        try directory.write("clubs.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46),
        ]))
        try directory.write("museums.level1.json", Level1Builder.level1(museums: [
            .init(town: "Eindhoven", fullName: "Pennings Foundation", nickName: "Pennings", latitude: 51.44, longitude: 5.47),
        ]))
        try directory.write("fgWaalre.level2.json", Level1Builder.level2(
            club: .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.3918, longitude: 5.4614)))

        let data = try HubLoader(reader: .standard).load(root: .remote(server.url("/root.level1.json")))
        #expect(data.organizations.map(\.nickName) == ["fgWaalre", "Pennings"])
        #expect(data.level1Files.count == 3)
        #expect(data.organizations[0].coordinates == GeoPoint(latitude: 51.3918, longitude: 5.4614), "Level 2 fetched by nickName")
        let paths = try server.requests().map(\.path)
        #expect(paths.contains("/fgWaalre.level2.json"))
        #expect(try server.requests().allSatisfy { $0.headers["user-agent"]?.hasPrefix("hubgeo/") == true })
    }
}
