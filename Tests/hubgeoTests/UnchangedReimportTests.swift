import Foundation
import HubGeoTestSupport
import Testing

/// An unchanged re-import reads no document twice (issue 42, step 1): every document the last
/// import read is hashed again, none is parsed when all hash the same, and a change of one byte in
/// any of them (a Level 1 leaf, an include parent, a Level 2 file), a document added or removed, or
/// rows written by another program make the import read everything again.
@Suite("an unchanged re-import parses nothing; one changed byte anywhere is seen", .serialized)
struct UnchangedReimportTests {
    let home: TemporaryDirectory
    let cli: CLIRunner
    let database: String
    let tree: String

    init() throws {
        home = try TestPaths.temporaryDirectory()
        (database, tree) = (home.path("hub.sqlite"), home.path("tree"))
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        cli = CLIRunner(database: database, home: home.url.path)
        // The root declares one club and includes a leaf of two; the club has a Level 2 file.
        try write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51.25, longitude: 5.25),
        ], includes: ["https://example.org/leaf.level1.json"]))
        try write("leaf.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Leaf", fullName: "Leaf One", nickName: "one", latitude: 52.25, longitude: 6.25),
            .init(town: "Leaf", fullName: "Leaf Two", nickName: "two", latitude: 52.75, longitude: 6.75),
        ]))
        try write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51.55, longitude: 5.55)))
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: tree).appendingPathComponent(name))
    }

    /// Replaces `old` by `new` (as many bytes) in the file `name`: a change of one byte.
    func changeOneByte(_ name: String, _ old: String, _ new: String) throws {
        let url = URL(fileURLWithPath: tree).appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(old.utf8.count == new.utf8.count && text.components(separatedBy: old).count == 2, "\(name): \(old)")
        let changed = text.replacingOccurrences(of: old, with: new)
        let difference = zip(text.utf8, changed.utf8).filter { $0 != $1 }.count
        #expect(difference == 1, "\(name): \(difference) bytes differ")
        try Data(changed.utf8).write(to: url)
    }

    func importTree(_ extra: [String] = []) throws -> CLIRunner.Result {
        let result = try cli.run(["import", tree, "--verbose"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    func sqlite(_ sql: String) throws -> String {
        let result = try CommandRunner.tool("sqlite3", [database, sql], package: "sqlite3")
        #expect(result.status == 0, "\(sql): \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let unchanged = "Unchanged since the last import: 3 documents read and hashed, none parsed"

    @Test("a re-import of the same tree parses no document, keeps the rows as they are (even one changed behind the record's back) and prints what the last import read; --reread reads everything")
    func unchangedReimportParsesNothing() throws {
        let first = try importTree()
        #expect(first.stdout.contains("3 added, 0 changed, 0 removed, 0 unchanged"), "\(first.stdout)")
        #expect(!first.stdout.contains("Unchanged since"))
        // A row changed behind the import's record: the triggers' count set back, as if nothing had been written.
        _ = try sqlite("""
            UPDATE organization SET nick_name = 'tampered', content_digest = 0 WHERE full_name = 'Leaf Two';
            UPDATE organization_writes SET since_import = 0
            """)
        let second = try importTree()
        #expect(second.stdout.contains("0 added, 0 changed, 0 removed, 3 unchanged"), "\(second.stdout)")
        #expect(second.stdout.contains(Self.unchanged), "\(second.stdout)")
        // What the last import read is said again: files, the override, the counts.
        #expect(second.stdout.contains("3 clubs, 0 museums from 2 Level 1 files; 1 Level 2 file merged (1 override), 0 orphans"),
                "\(second.stdout)")
        #expect(second.stdout.contains("override  The Club (Town): coordinates: 51.25, 5.25 -> 51.55, 5.55"), "\(second.stdout)")
        // The leaf was not parsed: its row is still the one changed behind the record.
        #expect(try sqlite("SELECT nick_name FROM organization WHERE full_name = 'Leaf Two'") == "tampered")
        // --reread parses every document: the row is the data's again.
        let reread = try importTree(["--reread"])
        #expect(!reread.stdout.contains("Unchanged since"), "\(reread.stdout)")
        #expect(reread.stdout.contains("changed   Leaf Two (Leaf)"), "\(reread.stdout)")
        #expect(try sqlite("SELECT nick_name FROM organization WHERE full_name = 'Leaf Two'") == "two")
        #expect(try importTree().stdout.contains(Self.unchanged))
    }

    /// Changes one byte of `file` and imports: `expected` in the output, The Club's latitude as
    /// `latitude`, then an unchanged re-import again.
    func expectOneByteSeen(_ file: String, _ old: String, _ new: String, printing expected: [String], latitude: String) throws {
        try changeOneByte(file, old, new)
        let result = try importTree()
        for line in expected + ["0 added, 1 changed, 0 removed, 2 unchanged"] {
            #expect(result.stdout.contains(line), "\(file): \(line) in \(result.stdout)")
        }
        #expect(!result.stdout.contains("Unchanged since"), "\(file)")
        #expect(try sqlite("SELECT latitude FROM organization WHERE full_name = 'The Club'") == latitude, "\(file)")
        #expect(try importTree().stdout.contains(Self.unchanged), "\(file)")
    }

    @Test("one byte changed in a Level 1 leaf, in the include parent, in a Level 2 file: each is seen and synced")
    func oneByteAnywhereIsSeen() throws {
        _ = try importTree()
        try expectOneByteSeen("leaf.level1.json", "52.75", "52.76", printing: ["changed   Leaf Two (Leaf)"], latitude: "51.55")
        // The include parent's own club: its Level 1 coordinates change, and its unchanged Level 2 file is merged again.
        try expectOneByteSeen("root.level1.json", "51.25", "51.26", printing: [
            "changed   The Club (Town)", "override  The Club (Town): coordinates: 51.26, 5.25 -> 51.55, 5.55",
        ], latitude: "51.55")
        try expectOneByteSeen("theClub.level2.json", "51.55", "51.56", printing: [
            "changed   The Club (Town)", "override  The Club (Town): coordinates: 51.26, 5.25 -> 51.56, 5.55",
        ], latitude: "51.56")
    }

    @Test("a document removed removes its organizations; a Level 2 file added beside the tree is merged")
    func removedAndAddedDocuments() throws {
        _ = try importTree()
        // The include parent no longer includes the leaf, which is deleted.
        try write("root.level1.json", Level1Builder.level1(clubs: [
            .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51.25, longitude: 5.25),
        ]))
        try FileManager.default.removeItem(atPath: URL(fileURLWithPath: tree).appendingPathComponent("leaf.level1.json").path)
        let removed = try importTree()
        #expect(removed.stdout.contains("0 added, 0 changed, 2 removed, 1 unchanged"), "\(removed.stdout)")
        #expect(try sqlite("SELECT count(*) FROM organization") == "1")
        // The Level 2 file removed: its club is Level 1's again.
        try FileManager.default.removeItem(atPath: URL(fileURLWithPath: tree).appendingPathComponent("theClub.level2.json").path)
        let level2Removed = try importTree()
        #expect(level2Removed.stdout.contains("0 added, 1 changed, 0 removed, 0 unchanged"), "\(level2Removed.stdout)")
        #expect(try importTree().stdout.contains("Unchanged since the last import: 1 document read and hashed"))
        // A Level 2 file appears in the folder: the listing differs, the tree is read, the club merged.
        try write("theClub.level2.json", Level1Builder.level2(
            club: .init(town: "Town", fullName: "The Club", nickName: "theClub", latitude: 51.55, longitude: 5.55)))
        let added = try importTree()
        #expect(added.stdout.contains("0 added, 1 changed, 0 removed, 0 unchanged"), "\(added.stdout)")
        #expect(try sqlite("SELECT latitude FROM organization WHERE full_name = 'The Club'") == "51.55")
    }

    @Test("rows written by another program (an organization, a remark): the record is not trusted, the tree is read, the organization is the data's again")
    func outsideWritesAreNotTrusted() throws {
        _ = try importTree()
        _ = try sqlite("UPDATE organization SET nick_name = 'outside', content_digest = 0 WHERE full_name = 'Leaf One'")
        let next = try importTree()
        #expect(!next.stdout.contains("Unchanged since"), "\(next.stdout)")
        #expect(next.stdout.contains("changed   Leaf One (Leaf)"), "\(next.stdout)")
        #expect(next.stderr.contains("written by another program"), "\(next.stderr)")
        #expect(try sqlite("SELECT nick_name FROM organization WHERE full_name = 'Leaf One'") == "one")
        #expect(try importTree().stdout.contains(Self.unchanged))
        // A remark, member or override row written by another program (here a remark added): read everything again.
        _ = try sqlite("""
            INSERT INTO organization_remark (organization_id, language, value)
            SELECT id, 'FR', 'ajoutée' FROM organization WHERE full_name = 'Leaf One'
            """)
        #expect(!(try importTree().stdout.contains("Unchanged since")))
        #expect(try importTree().stdout.contains(Self.unchanged))
    }
}
