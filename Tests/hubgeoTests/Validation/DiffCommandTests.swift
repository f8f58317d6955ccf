import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// `hubgeo diff` on the real data and a changed copy: golden output per format, exit codes as diff
/// has them, --db, --warn-moved, and the probable renames of import.
@Suite("hubgeo diff", .serialized)
struct DiffCommandTests {
    @Test("equal trees: exit 0 and a summary of unchanged organizations")
    func equal() throws {
        let directory = try TestPaths.temporaryDirectory()
        let result = try CITestSupport.hubgeo(in: directory.url, ["diff", CITestSupport.realData.path, CITestSupport.realData.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text == "0 added, 0 removed, 0 probable renames, 0 moved, 0 changed, 131 unchanged\n")
    }

    @Test("a changed copy: every format matches its golden file; exit 1; moves over --warn-moved are warnings")
    func changedCopy() throws {
        let directory = try TestPaths.temporaryDirectory()
        let head = directory.url.appendingPathComponent("head")
        try FileManager.default.createDirectory(at: head, withIntermediateDirectories: true)
        let json = try CITestSupport.copyRealData(into: head)
        try CITestSupport.changeCopy(json)
        let old = CITestSupport.realData.path
        for format in ["text", "github", "json"] {
            let result = try CITestSupport.hubgeo(in: head, ["diff", old, "JSON", "--warn-moved", "100", "--format", format])
            #expect(result.status == 1, "\(format): \(result.stderr)")
            let ext = format == "json" ? "json" : "txt"
            try CITestSupport.expectGolden(CITestSupport.stable(result.text, head).replacingOccurrences(of: old, with: "<real>"),
                                           "diff-changed.\(format).\(ext)")
            if format == "text" {
                #expect(result.stderr.contains("warning: museum Fotografiska Shanghai (Shanghai) moved 1,143 km"), "\(result.stderr)")
            }
        }
        let github = try CITestSupport.hubgeo(in: head, ["diff", old, "JSON", "--warn-moved", "100", "--format", "github"]).text
        #expect(github.hasPrefix("::warning file=JSON/museumsCN.level1.json,line=36,col=13,title=diff-moved::museum Fotografiska Shanghai (Shanghai) moved 1,143 km"))
        let noLimit = try CITestSupport.hubgeo(in: head, ["diff", old, "JSON", "--format", "github"]).text
        #expect(!noLimit.contains("::warning"))
        let report = try #require(try JSONSerialization.jsonObject(
            with: try CITestSupport.hubgeo(in: head, ["diff", old, "JSON", "--format", "json"]).stdout) as? [String: Any])
        let renamed = try #require(report["renamed"] as? [[String: Any]])
        #expect(renamed.count == 1 && (renamed.first?["new"] as? [String: Any])?["town"] as? String == "Waalwijk-Besoijen")
        // The ten clubs of clubsNL03, whose include is now skipped, and the club whose latitude is quoted.
        #expect((report["removed"] as? [Any])?.count == 11)
        let moved = try #require(report["moved"] as? [[String: Any]])
        #expect(moved.count == 2 && (moved[0]["kilometers"] as? Double ?? 0) >= (moved[1]["kilometers"] as? Double ?? 0))
    }

    @Test("--db compares with the last import; usage errors exit 64; an unreadable tree exits 2")
    func databaseAndErrors() throws {
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.path("hub.sqlite")
        let imported = try CITestSupport.hubgeo(in: directory.url, ["import", CITestSupport.realData.path, "--db", database])
        #expect(imported.status == 0, "\(imported.stderr)")
        let same = try CITestSupport.hubgeo(in: directory.url, ["diff", "--db", "--database", database, CITestSupport.realData.path])
        #expect(same.status == 0 && same.text.hasSuffix("131 unchanged\n"), "\(same.text)\(same.stderr)")
        let changed = directory.url.appendingPathComponent("changed")
        try FileManager.default.createDirectory(at: changed, withIntermediateDirectories: true)
        let json = try CITestSupport.copyRealData(into: changed)
        try CITestSupport.changeCopy(json)
        let differs = try CITestSupport.hubgeo(in: directory.url, ["diff", "--db", "--database", database, json.path])
        #expect(differs.status == 1 && differs.text.contains("1,143 km"), "\(differs.text)")
        for arguments in [["diff"], ["diff", "a"], ["diff", "a", "b", "c"], ["diff", "--db", "a", "b"], ["diff", "a", "b", "--warn-moved", "-1"]] {
            let usage = try CITestSupport.hubgeo(in: directory.url, arguments)
            #expect(usage.status == 64, "\(arguments): \(usage.status) \(usage.stderr)")
        }
        let missing = try CITestSupport.hubgeo(in: directory.url, ["diff", CITestSupport.realData.path, directory.path("nowhere")])
        #expect(missing.status == 2 && missing.stderr.contains("nowhere"), "\(missing.stderr)")
    }

    @Test("TreeDiff: renames as import finds them (same full name or nickname within 1 km), moves largest first")
    func treeDiffRules() {
        func organization(_ town: String, _ name: String, _ nick: String, _ lat: Double, _ lon: Double) -> Organization {
            Organization(type: .club, identity: OrganizationIdentity(town: town, fullName: name), nickName: nick,
                         coordinates: GeoPoint(latitude: lat, longitude: lon), level1Source: "t")
        }
        let old = [organization("A", "One", "one", 51, 5), organization("B", "Two", "two", 52, 5), organization("C", "Three", "three", 53, 5),
                   organization("D", "Four", "four", 50, 5), organization("E", "Five", "five", 10, 10)]
        let new = [organization("A2", "One", "one", 51.001, 5), organization("B", "Two", "two", 52.5, 5), organization("C", "Three", "three", 54, 5),
                   organization("D", "Four Renamed", "four", 50, 5), organization("F", "Six", "six", 20, 20)]
        let diff = TreeDiff(old: old, new: new)
        #expect(diff.renamed.map(\.new.town).sorted() == ["A2", "D"])
        #expect(diff.added.map(\.identity.fullName) == ["Six"] && diff.removed.map(\.identity.fullName) == ["Five"])
        #expect(diff.moved.map(\.identity.fullName) == ["Three", "Two"])
        #expect(abs(diff.moved[0].kilometers - Geodesic.distance(GeoPoint(latitude: 53, longitude: 5), GeoPoint(latitude: 54, longitude: 5)) / 1000) < 1e-9)
        #expect(!diff.isEqual && TreeDiff(old: old, new: old).isEqual)
    }
}
