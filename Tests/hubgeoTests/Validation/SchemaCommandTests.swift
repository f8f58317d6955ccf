import Foundation
import HubGeoTestSupport
import Testing

/// `hubgeo schema` prints docs/schemas/ byte for byte, and scripts/check-schemas.py holds the
/// schemas to the real data, the upstream fixtures and the mutants, with jsonschema and
/// check-jsonschema (make python-tools), and with this hubgeo's validate.
@Suite("JSON Schemas")
struct SchemaCommandTests {
    @Test("hubgeo schema level0|level1|level2 prints the bytes of docs/schemas/")
    func sameBytes() throws {
        for level in ["level0", "level1", "level2"] {
            let result = try CommandRunner.hubgeo(["schema", level])
            #expect(result.status == 0)
            let file = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/schemas/\(level).schema.json"))
            #expect(result.stdout == file, "\(level)")
        }
        #expect(try CommandRunner.hubgeo(["schema", "level3"]).status == 64)
    }

    @Test("scripts/check-schemas.py: every case passes with jsonschema, check-jsonschema and this hubgeo's validate")
    func checkSchemas() throws {
        let python = try CITestSupport.pythonTool("python")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = python.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try CommandRunner.run(python, [TestPaths.packageRoot.appendingPathComponent("scripts/check-schemas.py").path,
                                                    "--hubgeo", try CommandRunner.hubgeo.path], environment: environment, timeout: 300)
        let last = result.text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(result.status == 0 && last.hasSuffix(" passed, 0 failed"), "\(last)\n\(result.text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.joined(separator: "\n"))\(result.stderr)")
        // Every Level 0/1/2 file of the repository's data and fixtures is a case, and nothing is passed over.
        let folders = ["Data", "Tests/Fixtures/upstream"].map { TestPaths.packageRoot.appendingPathComponent($0) }
        let levelFiles = folders.flatMap { folder in
            (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.range(of: #"\.level[012]\.json$"#, options: [.regularExpression, .caseInsensitive]) != nil }
        }
        let fileCases = result.text.split(separator: "\n").filter { $0.hasPrefix("PASS  file") && $0.contains(".level") && $0.contains(": ") }
        #expect(levelFiles.count == 53 && fileCases.count == levelFiles.count, "\(fileCases.count) file cases for \(levelFiles.count) files")
        #expect(!result.text.contains("note:"), "\(result.text.split(separator: "\n").filter { $0.hasPrefix("note:") })")
    }
}
