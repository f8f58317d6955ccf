import Foundation
import HubGeoTestSupport
import Testing

/// A local tree is read on a thread of its own while the import writes (issue 42, step 4):
/// the database is the one an import reading in line makes, and a document that fails late in a
/// large tree fails the import as it always did.
@Suite("an overlapped import writes what an import in line writes, and fails as one", .serialized)
struct OverlappedImportTests {
    let home: TemporaryDirectory
    let tree: String
    /// The parts the root includes, and the organizations in each.
    let parts = 4, perPart = 1_500

    init() throws {
        home = try TestPaths.temporaryDirectory()
        tree = home.path("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        // The root includes the parts; the last part declares again a club of the first (the
        // first declaration wins), and two clubs have Level 2 files (held back for the merge).
        try write("root.level1.json", Level1Builder.level1(
            clubs: [.init(town: "Root", fullName: "Root Club", nickName: "rootClub", latitude: 50.5, longitude: 4.5)],
            includes: (1...parts).map { "part\($0).level1.json" }))
        for part in 1...parts {
            var clubs = (0..<perPart / 2).map { club(part: part, index: $0) }
            if part == parts { clubs.append(club(part: 1, index: 7)) }
            let museums = (0..<perPart / 2).map {
                Level1Builder.Entry(town: "Town \(part)-\($0 % 40)", fullName: "Museum \(part)-\($0)", nickName: "m\(part)x\($0)",
                                    latitude: 50 + Double(part) / 10, longitude: 3 + Double($0) / 1_000)
            }
            try write("part\(part).level1.json", Level1Builder.level1(clubs: clubs, museums: museums))
        }
        for (part, index) in [(1, 3), (parts, 11)] {
            var moved = club(part: part, index: index)
            moved.latitude += 0.25
            try write("\(moved.nickName).level2.json", Level1Builder.level2(club: moved))
        }
    }

    func club(part: Int, index: Int) -> Level1Builder.Entry {
        Level1Builder.Entry(town: "Town \(part)-\(index % 40)", fullName: "Club \(part)-\(index)", nickName: "c\(part)x\(index)",
                            latitude: 51 + Double(part) / 10, longitude: 5 + Double(index) / 1_000,
                            optional: #"{"remark": [{"language": "EN", "value": "Remark \#(index)"}]}"#)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: tree).appendingPathComponent(name))
    }

    func runner(_ name: String) -> CLIRunner {
        CLIRunner(database: home.path(name), home: home.url.path)
    }

    func exports(_ cli: CLIRunner) throws -> [String] {
        try [["export", "geojson"], ["export", "kml"]].map { arguments in
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
    }

    @Test("the database of an overlapped import exports the same bytes as one read in line")
    func sameAsInLine() throws {
        // Includes followed as written read in line (they might name a URL); by name, overlapped.
        let overlapped = runner("overlapped.sqlite"), inLine = runner("inline.sqlite")
        let first = try overlapped.run(["import", tree])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try inLine.run(["import", tree, "--follow-include-urls"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(first.stdout.replacingOccurrences(of: "overlapped.sqlite", with: "") == second.stdout.replacingOccurrences(of: "inline.sqlite", with: ""))
        let organizations = 1 + parts * perPart
        #expect(first.stdout.contains("\(organizations)"), "\(first.stdout)")
        let (a, b) = (try exports(overlapped), try exports(inLine))
        #expect(a[0].utf8.count > 100_000)
        for (x, y) in zip(a, b) { #expect(x == y) }
        // The first declaration won: the club of part 1 declared again in the last part is there once.
        #expect(a[0].components(separatedBy: #""Club 1-7""#).count == 2)
    }

    @Test("bad JSON or a wrong shape in the last document, after thousands of organizations, leaves the database as it was and names the file",
          arguments: ["malformed", "shape"])
    func lateFailure(_ fault: String) throws {
        let cli = runner("hub.sqlite")
        let database = home.path("hub.sqlite")
        let good = try cli.run(["import", tree])
        #expect(good.status == 0, "\(good.stderr)")
        let before = try exports(cli)
        let bytesBefore = try Data(contentsOf: URL(fileURLWithPath: database))
        let last = "part\(parts).level1.json"
        let url = URL(fileURLWithPath: tree).appendingPathComponent(last)
        var text = try String(contentsOf: url, encoding: .utf8)
        // Every organization changes (a new town for each), so a partial write would show.
        for part in 1..<parts {
            let other = URL(fileURLWithPath: tree).appendingPathComponent("part\(part).level1.json")
            try Data(try String(contentsOf: other, encoding: .utf8).replacingOccurrences(of: "Town ", with: "City ").utf8).write(to: other)
        }
        switch fault {
        case "malformed": text = String(text.dropLast(3))  // the document ends inside its museums
        default: text = text.replacingOccurrences(of: #""museums": ["#, with: #""museums": 7, "unused": ["#)
        }
        try Data(text.utf8).write(to: url)

        let failed = try cli.run(["import", tree])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(url.path), "\(failed.stderr)")
        if fault == "malformed" {
            #expect(failed.stderr.contains("malformed JSON"), "\(failed.stderr)")
        } else {
            #expect(failed.stderr.contains("museums"), "the JSON path: \(failed.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytesBefore)
        #expect(try exports(cli) == before)

        // A new database is not made at all.
        let fresh = runner("fresh.sqlite")
        let failedNew = try fresh.run(["import", tree])
        #expect(failedNew.status == 1)
        #expect(failedNew.stderr.contains(url.path), "\(failedNew.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path("fresh.sqlite")))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.url.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }
}
