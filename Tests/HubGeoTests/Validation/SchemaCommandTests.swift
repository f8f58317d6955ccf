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
        let passed = Int(last.split(separator: " ").first ?? "") ?? 0
        #expect(passed > 200, "\(last)")
    }
}
