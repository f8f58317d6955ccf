import Foundation
import HubGeoTestSupport
import Testing

/// `validate --baseline BASE` on copies of the real data (Data/: upstream's JSON, with its 3
/// `orphan-level2` errors and 104 warnings): only the problems a change introduces are reported,
/// matched by rule, file and JSON path, not by line.
@Suite("validate --baseline", .serialized)
struct BaselineTests {
    /// `JSON` and `base/JSON` in one folder (the head's tree, where hubgeo runs), both copies of the real data.
    static func trees() throws -> (directory: TemporaryDirectory, base: URL, head: URL) {
        let directory = try TestPaths.temporaryDirectory()
        let base = directory.url.appendingPathComponent("base"), head = directory.url
        for folder in [base, head] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try CITestSupport.copyRealData(into: folder)
        }
        return (directory, base, head)
    }

    @Test("unchanged data passes and says what it left as it was; the same without a baseline fails on upstream's 3 errors")
    func unchangedPasses() throws {
        let (directory, _, head) = try Self.trees()
        _ = directory
        let plain = try CITestSupport.hubgeo(in: head, ["validate", "JSON"])
        #expect(plain.status == 1 && plain.text.hasSuffix("33 files, 265 organizations: 3 errors, 104 warnings\n"), "\(plain.text.suffix(100))")
        let result = try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--baseline", "base"])
        #expect(result.status == 0, "\(result.text)\(result.stderr)")
        #expect(result.text == "33 files, 265 organizations: 0 errors, 0 warnings\n"
                + "against the baseline base: 3 errors and 104 warnings left as they were (not shown), 0 fixed\n", "\(result.text)")
        #expect(try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--baseline", "base", "--strict"]).status == 0)
    }

    @Test("a new bad file fails and is named; lines moved by an edit do not make old problems new; a fixed one is counted")
    func newBadFileFails() throws {
        let (directory, _, head) = try Self.trees()
        _ = directory
        let json = head.appendingPathComponent("JSON")
        try ActionTests.addBadFile(json)
        // Five lines more at the top of a file with warnings: its problems move, they do not change.
        let dunes = json.appendingPathComponent("fcDenDungen.level2.json")
        let text = try String(contentsOf: dunes, encoding: .utf8)
        try Data(("\n\n\n\n\n" + text).utf8).write(to: dunes)
        // One orphan fixed: its Level 2 file removed.
        try FileManager.default.removeItem(at: json.appendingPathComponent("IndividueelBO.level2.json"))

        let result = try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--baseline", "base"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.text.split(separator: "\n").map(String.init)
        // The new file's two errors (its one club skipped, so no organization either), the summary (one file more, one less), the baseline's count.
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.prefix(2).allSatisfy { $0.hasPrefix("\(json.path)/clubsNL99.level1.json:") }, "\(lines)")
        #expect(lines[1].contains(": clubs[0].coordinates.latitude: error: expected a number, found a string") && lines[1].hasSuffix("[wrong-type]"))
        #expect(lines[2] == "33 files, 265 organizations: 2 errors, 0 warnings", "\(lines)")
        let fixed = try #require(lines.last)
        let fixedCount = try Self.problems(in: "IndividueelBO.level2.json")
        #expect(fixed.hasPrefix("against the baseline base: 2 errors and ") && fixed.hasSuffix(" left as they were (not shown), \(fixedCount) fixed"), "\(fixed)")

        // gcc, as in a GitHub Actions step, and json carry the same.
        let gcc = try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--baseline", "base"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(gcc.status == 1 && gcc.text.hasPrefix("JSON/clubsNL99.level1.json:"), "\(gcc.text)")
        let report = try #require(try JSONSerialization.jsonObject(
            with: try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--baseline", "base", "--format", "json"]).stdout) as? [String: Any])
        #expect(report["errors"] as? Int == 2 && report["passed"] as? Bool == false)
        let baseline = try #require(report["baseline"] as? [String: Any])
        #expect(baseline["folder"] as? String == "base" && baseline["unchangedErrors"] as? Int == 2)
    }

    /// How many problems the real data has in `file`.
    static func problems(in file: String) throws -> Int {
        let (directory, _, head) = try trees()
        _ = directory
        let report = try #require(try JSONSerialization.jsonObject(with: try CITestSupport.hubgeo(in: head, ["validate", "JSON", "--format", "json"]).stdout)
            as? [String: Any])
        return (report["diagnostics"] as? [[String: Any]] ?? []).count { ($0["file"] as? String)?.hasSuffix("/JSON/" + file) == true }
    }

    @Test("an input the base lacks is new in full")
    func countsAndNewInputs() throws {
        let (directory, _, head) = try Self.trees()
        _ = directory
        try ActionTests.addBadFile(head)
        let result = try CITestSupport.hubgeo(in: head, ["validate", "JSON", "clubsNL99.level1.json", "--baseline", "base"])
        #expect(result.status == 1)
        #expect(result.text.contains("clubsNL99.level1.json:") && result.text.contains("[wrong-type]"), "\(result.text)")
        #expect(result.text.hasSuffix("against the baseline base: 3 errors and 104 warnings left as they were (not shown), 0 fixed\n"), "\(result.text)")
    }

    @Test("a baseline that is not a folder, an input outside the current directory or a URL: exit 64 naming it")
    func usageErrors() throws {
        let (directory, _, head) = try Self.trees()
        let outside = directory.url.deletingLastPathComponent().path
        for (arguments, message) in [
            (["validate", "JSON", "--baseline", "nowhere"], "--baseline nowhere: not a folder"),
            (["validate", "--baseline", "base"], "--baseline needs the files or folders to check"),
            (["validate", outside, "--baseline", "base"], "--baseline: \(outside) is not inside the current directory"),
            (["validate", "http://127.0.0.1:9/x.level1.json", "--baseline", "base"], "--baseline compares local files: http://127.0.0.1:9/x.level1.json is a URL"),
        ] {
            let result = try CITestSupport.hubgeo(in: head, arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.text.isEmpty)
        }
        _ = directory
    }
}
