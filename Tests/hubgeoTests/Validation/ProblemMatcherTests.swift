import Foundation
import HubGeoTestSupport
import Testing

/// .github/hubgeo-matcher.json, the problem matcher the action registers, against what `hubgeo
/// validate` prints in a GitHub Actions step: its regexp, run by node (JavaScript's RegExp, as the
/// problem matchers of actions/toolkit are written), makes one annotation of each diagnostic line,
/// with the file, line, column, severity, message and rule of `--format json`, and of no other line.
@Suite("The problem matcher", .serialized)
struct ProblemMatcherTests {
    static let matcher = TestPaths.packageRoot.appendingPathComponent(".github/hubgeo-matcher.json")

    /// What the matcher makes of each line of `text`: nil where it does not match.
    static func match(_ text: String) throws -> [[String: String]?] {
        let script = """
            const fs = require("fs");
            const matcher = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).problemMatcher[0];
            const pattern = matcher.pattern[0], regexp = new RegExp(pattern.regexp);
            const lines = fs.readFileSync(0, "utf8").split("\\n");
            if (lines[lines.length - 1] === "") lines.pop();
            console.log(JSON.stringify(lines.map(line => {
                const m = regexp.exec(line);
                if (!m) return null;
                const out = {};
                for (const key of ["file", "line", "column", "severity", "message", "code"]) if (m[pattern[key]] !== undefined) out[key] = m[pattern[key]];
                return out;
            })));
            """
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-matcher-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let node = try #require(CommandRunner.which("node"), "node is a test dependency (make test-deps)")
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$1\" -e \"$2\" \"$3\" < \"$4\"", "sh", node.path, script,
                                                                          matcher.path, input.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([[String: String]?].self, from: result.stdout)
    }

    @Test("each diagnostic of the real data and of a changed copy is one annotation with its place, severity, message and rule; the summary is none")
    func matchesEveryDiagnostic() throws {
        let directory = try TestPaths.temporaryDirectory()
        for name in ["real", "changed"] {
            let folder = directory.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try CITestSupport.copyRealData(into: folder)
            if name == "changed" { try CITestSupport.changeCopy(folder.appendingPathComponent("JSON")) }
            let log = try CITestSupport.hubgeo(in: folder, ["validate", "JSON"], environment: ["GITHUB_ACTIONS": "true"])
            #expect(log.status == 1)
            let json = try CITestSupport.hubgeo(in: folder, ["validate", "JSON", "--format", "json"])
            let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
            let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
            let matches = try Self.match(log.text)
            #expect(matches.count == diagnostics.count + 1, "one line per diagnostic and the summary")
            #expect(matches.last == .some(nil), "the summary line is no annotation")
            for (match, diagnostic) in zip(matches, diagnostics) {
                let path = diagnostic["jsonPath"] as? String ?? ""
                let expected: [String: String] = [
                    "file": (diagnostic["file"] as? String ?? "").replacingOccurrences(of: folder.path + "/", with: ""),
                    "line": "\(diagnostic["line"] as? Int ?? -1)", "column": "\(diagnostic["column"] as? Int ?? -1)",
                    "severity": diagnostic["severity"] as? String ?? "", "code": diagnostic["rule"] as? String ?? "",
                    "message": (path.isEmpty ? "" : path + ": ") + (diagnostic["message"] as? String ?? ""),
                ]
                #expect(match == expected, "\(name)")
            }
        }
    }

    @Test("a line without a column, or without a line, is still an annotation of its file; other output is none")
    func partialLocations() throws {
        let matches = try Self.match("""
            JSON/a.level1.json:12: warning: clubs[0]: m [unknown-key]
            JSON/a b.level1.json: error: the file: it is empty [json-syntax]
            33 files, 265 organizations: 3 errors, 104 warnings
            against the baseline base: 3 errors and 104 warnings left as they were (not shown), 0 fixed

            """)
        #expect(matches[0] == ["file": "JSON/a.level1.json", "line": "12", "severity": "warning", "message": "clubs[0]: m", "code": "unknown-key"])
        #expect(matches[1] == ["file": "JSON/a b.level1.json", "severity": "error", "message": "the file: it is empty", "code": "json-syntax"])
        #expect(matches[2] == nil && matches[3] == nil && matches.count == 4)
    }
}
