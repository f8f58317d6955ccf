import Foundation
import HubGeoTestSupport
import Testing

/// Every bad input of `BadInputCorpus` through the built binary: `validate` and `import` exit 1
/// with a clear message, and the database that was there before is unchanged byte for byte.
@Suite("Bad-input corpus: clear errors, no crash, database untouched")
struct BadInputCorpusTests {
    /// One database, imported once from a small good tree, shared by every case (read-only for them).
    final class SharedDatabase: Sendable {
        let home: String
        let database: String
        let digest: [String: Data]

        static let shared: Result<SharedDatabase, Error> = Result { try SharedDatabase() }

        init() throws {
            home = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-corpus-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            database = home + "/hub.sqlite"
            let source = home + "/good"
            try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
            try Data(Level1Builder.level1(clubs: [
                .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46),
            ]).utf8).write(to: URL(fileURLWithPath: source + "/root.level1.json"))
            let result = try CLIRunner(database: database, home: home).run(["import", source])
            guard result.status == 0 else { throw CommandRunner.Failure(description: "import failed: \(result.stderr)") }
            digest = try Self.snapshot(database)
        }

        /// The bytes of the database and its WAL/SHM companions.
        static func snapshot(_ database: String) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
                files[suffix] = try Data(contentsOf: URL(fileURLWithPath: database + suffix))
            }
            return files
        }
    }

    @Test func corpusHasAtLeastThirtyCases() {
        #expect(BadInput.all.count >= 30)
        #expect(Set(BadInput.all.map(\.name)).count == BadInput.all.count)
    }

    @Test(arguments: BadInput.all)
    func badInputGivesAClearErrorAndLeavesTheDatabase(_ input: BadInput) throws {
        let shared = try SharedDatabase.shared.get()
        let directory = try TestPaths.temporaryDirectory()
        var files = input.files
        if let size = input.generatedBytes {
            // A plausible Level 1 file padded to `size` bytes with one huge remark.
            let head = "{\"clubs\": [{\"idPlus\": {\"town\": \"T\", \"fullName\": \"F\", \"nickName\": \"n\"}, \"coordinates\": {\"latitude\": 1, \"longitude\": 1}, \"optional\": {\"remark\": [{\"language\": \"EN\", \"value\": \""
            let tail = "\"}]}}]}"
            var bytes = Data(head.utf8)
            bytes.append(Data(repeating: UInt8(ascii: "x"), count: size - head.utf8.count - tail.utf8.count))
            bytes.append(Data(tail.utf8))
            files["root.level1.json"] = bytes
        }
        for (name, bytes) in files { try bytes.write(to: directory.url.appendingPathComponent(name)) }
        let root = directory.path("root.level1.json")
        // Each case imports into its own copy of the shared database: the cases run in parallel, and
        // an import that opens the database (it syncs in a transaction that a failure rolls back)
        // has `-wal` and `-shm` files beside it while it runs, which another case must not see.
        let database = directory.path("hub.sqlite")
        try FileManager.default.copyItem(atPath: shared.database, toPath: database)
        #expect(try SharedDatabase.snapshot(database) == shared.digest)
        let cli = CLIRunner(database: database, home: shared.home)

        let validate = try cli.run(["validate", root], timeout: 60)
        #expect(validate.status == 1, "validate exit status for \(input.name): \(validate.status)\n\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains(": error: "), "\(validate.stdout)")
        #expect(validate.stdout.contains(input.validateExpect ?? input.expect), "validate output for \(input.name):\n\(validate.stdout.prefix(2000))")
        #expect(validate.stdout.utf8.count < 20_000, "the diagnosis stays readable")

        let result = try cli.run(["import", root, "--db", database], timeout: 60)
        #expect(result.status == 1, "import exit status for \(input.name): \(result.status)\n\(result.stderr.prefix(2000))")
        #expect(result.stderr.contains("Error:"))
        #expect(result.stderr.contains(input.expect), "import stderr for \(input.name):\n\(result.stderr.prefix(2000))")
        #expect(try SharedDatabase.snapshot(database) == shared.digest, "the database changed")
    }
}
