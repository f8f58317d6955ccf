import Foundation
import HubGeoTestSupport
import Testing

/// action.yml and docs/ci/check-data.yml, the example workflow that adopts it: valid for GitHub
/// (check-jsonschema's vendored schemas of actions and workflows), and the adoption is one line
/// that pins the action, so the hubgeo it installs, at this version. How the action's steps run:
/// ActionTests.
@Suite("Example workflow and action metadata", .serialized)
struct ExampleWorkflowTests {
    static let workflow = TestPaths.packageRoot.appendingPathComponent("docs/ci/check-data.yml")
    static let action = TestPaths.packageRoot.appendingPathComponent("action.yml")

    @Test("action.yml validates against GitHub's schema of actions, the example workflow against that of workflows")
    func schemas() throws {
        for (schema, file) in [("vendor.github-actions", Self.action), ("vendor.github-workflows", Self.workflow)] {
            let result = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"), ["--builtin-schema", schema, file.path])
            #expect(result.status == 0, "\(file.lastPathComponent): \(result.text)\(result.stderr)")
        }
    }

    @Test("a file that breaks GitHub's schema of actions is refused by the same check")
    func schemaCheckCanFail() throws {
        let directory = try TestPaths.temporaryDirectory()
        // A composite action's run step must name its shell.
        let text = try String(contentsOf: Self.action, encoding: .utf8)
        let broken = try directory.write("action.yml", text.replacingOccurrences(of: "      shell: bash\n", with: ""))
        let result = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"), ["--builtin-schema", "vendor.github-actions", broken.path])
        #expect(result.status != 0, "\(result.text)")
    }

    @Test("the workflow checks out the data and adopts the action in one line, pinned at hubgeo's version; docs/ci.md shows the same line")
    func oneLineAdoption() throws {
        let version = try CommandRunner.hubgeo(["--version"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let steps = try String(contentsOf: Self.workflow, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("- ") }
        #expect(steps == ["- \"JSON/**\"", "- uses: actions/checkout@v4", "- uses: OWNER/hubgeo@v\(version)"], "\(steps)")
        let page = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        #expect(page.contains("- uses: OWNER/hubgeo@v\(version)"))
    }
}
