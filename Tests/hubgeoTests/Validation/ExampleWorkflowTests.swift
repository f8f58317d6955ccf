import Foundation
import HubGeoTestSupport
import Testing

/// docs/ci/check-data.yml: valid for GitHub (check-jsonschema's vendored workflow schema), and its
/// validate and diff steps, run here as the runner would (bash -e, GITHUB_ACTIONS=true, the base
/// and head checkouts side by side), print the annotations a reviewer sees.
@Suite("Example workflow", .serialized)
struct ExampleWorkflowTests {
    static let workflow = TestPaths.packageRoot.appendingPathComponent("docs/ci/check-data.yml")

    @Test("the workflow validates against GitHub's workflow schema")
    func schema() throws {
        let result = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"),
                                           ["--builtin-schema", "vendor.github-workflows", Self.workflow.path])
        #expect(result.status == 0, "\(result.text)\(result.stderr)")
    }

    /// The `run:` of the step with `id`, and its working directory (a one-line `run` as written).
    static func step(_ id: String) throws -> (run: String, workingDirectory: String?) {
        let lines = try String(contentsOf: workflow, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "id: \(id)" })
        var run: String?, directory: String?
        for line in lines[start...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- name:") { break }
            if trimmed.hasPrefix("run: ") { run = String(trimmed.dropFirst(5)) }
            if trimmed.hasPrefix("working-directory: ") { directory = String(trimmed.dropFirst(19)) }
        }
        return (try #require(run), directory)
    }

    @Test("its validate and diff steps annotate a pull request that changes the data")
    func stepsAnnotate() throws {
        let workspace = try TestPaths.temporaryDirectory()
        for side in ["base", "head"] {
            try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent(side), withIntermediateDirectories: true)
            _ = try CITestSupport.copyRealData(into: workspace.url.appendingPathComponent(side))
        }
        try CITestSupport.changeCopy(workspace.url.appendingPathComponent("head/JSON"))
        let bin = try CommandRunner.hubgeo.deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_WORKSPACE"] = workspace.url.path
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HUBGEO_DB"] = workspace.path("hub.sqlite")
        func run(_ id: String) throws -> CommandRunner.Result {
            let step = try Self.step(id)
            let folder = workspace.url.appendingPathComponent(step.workingDirectory ?? ".").path
            return try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", "cd \"$0\" && \(step.run)", folder],
                                         environment: environment, timeout: 120)
        }
        let validate = try run("validate")
        #expect(validate.status == 1, "errors fail the check: \(validate.stderr)")
        let annotations = validate.text.split(separator: "\n").filter { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") }
        #expect(annotations.contains { $0.hasPrefix("::error file=JSON/clubsNL.level1.json,line=5,col=13,endLine=5,endColumn=106,title=include-name::") },
                "\(annotations.prefix(3))")
        #expect(annotations.contains { $0.hasPrefix("::error file=JSON/clubsNL16.level1.json,line=75,col=17,endLine=75,endColumn=39,title=wrong-type::") })
        let diff = try run("diff")
        #expect(diff.status == 0, "differences are not a failure of the step: \(diff.stderr)")
        let lines = diff.text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("::warning file=JSON/museumsCN.level1.json,line=36,col=13,title=diff-moved::museum Fotografiska Shanghai (Shanghai) moved 1,143 km") == true,
                "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("::notice file=JSON/clubsNL16.level1.json,") && $0.contains("title=diff-renamed::") })
        #expect(lines.last == "0 added, 11 removed, 1 probable rename, 2 moved, 1 changed, 116 unchanged")
    }
}
