import Foundation
import HubGeoTestSupport
import Testing

/// What the user typed reaches hubgeo exactly as typed: negative numbers where numbers are
/// expected, text and paths that start with a minus, and messages that quote them. (The argument
/// parser alone reads every command; nothing rewrites an argument before it.)
@Suite("arguments as typed, run as a user would")
struct TypedArgumentsTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
    }

    /// A tree with one club in a town named "-5" whose nickname is "-1".
    func importMinusTown() throws {
        let club = Level1Builder.Entry(town: "-5", fullName: "Fotoclub Minus", nickName: "-1", latitude: -33.9, longitude: 151.2)
        let tree = try home.write("minus.level1.json", Level1Builder.level1(clubs: [club]))
        let imported = try cli.run(["import", tree.path])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test("negative latitudes, longitudes and corners work as positional values and as option values, in any order")
    func negativeNumbers() throws {
        let sydney = try cli.run(["near", "-33.87", "151.21", "--km", "10"])
        #expect(sydney.status == 0 && sydney.stdout.contains("Australian Centre for Photography"), "\(sydney.stderr)")
        #expect(try cli.run(["near", "--km", "10", "-33.87", "151.21"]).stdout == sydney.stdout)
        #expect(try cli.run(["near", "--km", "10", "--", "-33.87", "151.21"]).stdout == sydney.stdout)
        let box = try cli.run(["bbox", "-34", "150", "-33", "152"])
        #expect(box.status == 0 && box.stdout.contains("Australian Centre for Photography"), "\(box.stderr)")
        let exported = try cli.run(["export", "geojson", "--bbox", "-34", "150", "-33", "152"])
        let near = try cli.run(["export", "geojson", "--near", "-33.87", "151.21", "--km", "10"])
        #expect(exported.status == 0 && near.status == 0)
        #expect(featureIDs(exported.stdout) == featureIDs(near.stdout) && featureIDs(near.stdout).count == 1)
    }

    @Test("text and names that start with a minus are looked for as typed")
    func minusText() throws {
        try importMinusTown()
        for arguments in [["search", "-5"], ["search", "--", "-5"]] {
            let found = try cli.run(arguments)
            #expect(found.status == 0 && found.stdout.contains("Fotoclub Minus"), "\(arguments): \(found.stdout) \(found.stderr)")
        }
        for arguments in [["show", "-1"], ["show", "--", "-1"]] {
            let shown = try cli.run(arguments)
            #expect(shown.status == 0 && shown.stdout.contains("Fotoclub Minus"), "\(arguments): \(shown.stderr)")
        }
        let missing = try cli.run(["show", "--", "-7"])
        #expect(missing.status == 1 && missing.stderr.contains("no organization matches \"-7\""), "\(missing.stderr)")
        #expect(!missing.stderr.unicodeScalars.contains("\u{2212}"))
    }

    @Test("paths that start with a minus are used as typed")
    func minusPaths() throws {
        let folder = try TestPaths.temporaryDirectory()
        let stats = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.url.path,
                                                                            try CLIRunner.binary().path, "stats", "--db=-5"],
                                          environment: cli.environment, timeout: 60)
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("-5")))
        let exported = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.url.path,
                                                                               try CLIRunner.binary().path, "export", "geojson", "--db=-5", "-o", "./-1"],
                                             environment: cli.environment, timeout: 60)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("-1")))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!names.contains { $0.unicodeScalars.contains("\u{2212}") }, "\(names)")
    }

    @Test("a refused form quotes what was typed, and exits 64", arguments: [
        (["near", "51", "5", "--nearest=-3"], "not -3"),
        (["near", "51", "5", "-3"], "'-3'"),
        (["near", "51.4", "5.4", "--kn", "20"], "Unknown option '--kn'. Did you mean '--km'?"),
        (["bbox", "-34", "150", "-33"], "Missing expected argument '<maxlon>'"),
        (["search", "-x"], "Unknown option '-x'"),
        (["search", "a", "-5"], "Unexpected argument '-5'"),
        (["export", "geojson", "--typo", "1"], "Unknown option '--typo'. Did you mean '--type'?"),
        (["near", "91", "-5"], "latitude 91.0 is outside -90...90"),
        (["near", "0x10", "5"], "The value '0x10' is invalid for '<latitude>'"),
        (["bbox", "50", "3", "54", "inf"], "The value 'inf' is invalid for '<maxlon>'"),
        (["export", "kml", "--bbox", "50", "3", "54", "0x8"], "--bbox takes four numbers"),
    ])
    func refusedFormsQuoteTheInput(_ arguments: [String], _ expected: String) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.status)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains("\u{2212}"), "\(arguments)")
        #expect(result.stdout.isEmpty)
    }
}
