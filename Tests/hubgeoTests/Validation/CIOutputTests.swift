import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// `validate --format github|sarif|json|text` on the real data and on a changed copy, byte for byte
/// against golden files, with SARIF read back by Microsoft's sarif-tools and checked against the
/// SARIF 2.1.0 schema.
@Suite("validate output for CI", .serialized)
struct CIOutputTests {
    static func trees() throws -> (directory: TemporaryDirectory, real: URL, changed: URL) {
        let directory = try TestPaths.temporaryDirectory()
        let real = directory.url.appendingPathComponent("real")
        let changed = directory.url.appendingPathComponent("changed")
        for folder in [real, changed] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try CITestSupport.copyRealData(into: folder)
        }
        try CITestSupport.changeCopy(changed.appendingPathComponent("JSON"))
        return (directory, real, changed)
    }

    @Test("every format of the real data and of a changed copy matches its golden file; exit 1 on errors as before")
    func golden() throws {
        let (directory, real, changed) = try Self.trees()
        _ = directory
        for (name, folder) in [("real", real), ("changed", changed)] {
            for format in ["text", "gcc", "github", "json", "sarif"] {
                let result = try CITestSupport.hubgeo(in: folder, ["validate", "JSON", "--format", format])
                #expect(result.status == 1, "\(name) \(format): \(result.stderr)")
                #expect(result.stderr.isEmpty, "\(result.stderr)")
                let ext = format == "json" || format == "sarif" ? format : "txt"
                try CITestSupport.expectGolden(CITestSupport.stable(result.text, folder), "validate-\(name).\(format).\(ext)")
            }
        }
    }

    @Test("GITHUB_ACTIONS=true chooses the gcc lines of the problem matcher; --format overrides it")
    func gccByDefaultInActions() throws {
        let (directory, real, _) = try Self.trees()
        _ = directory
        let actions = try CITestSupport.hubgeo(in: real, ["validate", "JSON"], environment: ["GITHUB_ACTIONS": "true"])
        let gcc = try CITestSupport.hubgeo(in: real, ["validate", "JSON", "--format", "gcc"])
        #expect(actions.status == 1 && actions.text == gcc.text)
        #expect(actions.text.hasPrefix("JSON/IndividueelBO.level2.json:3:9: error: club.idPlus: orphan: club Individuele Leden Brabant Oost"))
        let github = try CITestSupport.hubgeo(in: real, ["validate", "JSON", "--format", "github"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(github.text.hasPrefix("::error file=JSON/IndividueelBO.level2.json,line=3,col=9,endLine=7,title=orphan-level2::"))
        let text = try CITestSupport.hubgeo(in: real, ["validate", "JSON", "--format", "text"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(!text.text.contains("::"))
        let plain = try CITestSupport.hubgeo(in: real, ["validate", "JSON"], environment: ["GITHUB_ACTIONS": "false"])
        #expect(plain.text == text.text)
    }

    @Test("gcc lines in a step whose working directory is a subfolder of the workspace name files from the workspace, where the runner looks")
    func gccPathsFromTheWorkspace() throws {
        let (directory, real, _) = try Self.trees()
        let actions = try CITestSupport.hubgeo(in: real, ["validate", "JSON"],
                                               environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": directory.url.path])
        #expect(actions.text.hasPrefix("real/JSON/IndividueelBO.level2.json:3:9: error: "), "\(actions.text.prefix(200))")
        let elsewhere = try CITestSupport.hubgeo(in: real, ["validate", "JSON"],
                                                 environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": real.appendingPathComponent("JSON").path])
        #expect(elsewhere.text.hasPrefix("JSON/IndividueelBO.level2.json:3:9: error: "), "outside the workspace: from the current directory")
    }

    @Test("annotations: errors first, at most 10 errors and 10 warnings, then a notice counting the rest and the full list")
    func annotationLimits() throws {
        let directory = try TestPaths.temporaryDirectory()
        // 12 clubs without coordinates (errors) and 13 with an empty website (warnings).
        let broken = (0..<12).map { #"{"idPlus": {"town": "T\#($0)", "fullName": "Broken \#($0)", "nickName": "b\#($0)"}}"# }
        let padded = (0..<13).map { index in
            Level1Builder.record(.init(town: "T\(index)", fullName: "Club \(index)", nickName: "c\(index)", latitude: 50 + Double(index),
                                       longitude: 5, optional: #"{"website": ""}"#))
        }
        _ = try directory.write("root.level1.json", #"{"clubs": [\#((broken + padded).joined(separator: ",\n"))]}"#)
        let result = try CITestSupport.hubgeo(in: directory.url, ["validate", "root.level1.json", "--format", "github"])
        #expect(result.status == 1)
        let lines = result.text.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }, warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(errors.count == 10 && warnings.count == 10)
        let lastError = try #require(lines.lastIndex { $0.hasPrefix("::error ") })
        let firstWarning = try #require(lines.firstIndex { $0.hasPrefix("::warning ") })
        #expect(lastError < firstWarning)
        #expect(lines.filter { $0.hasPrefix("::notice ") } == [
            "::notice title=hubgeo validate::2 more errors and 3 more warnings not shown as annotations (GitHub shows 10 of each per step): "
                + "all 25 are listed in this step's log under \"All diagnostics\", or run hubgeo validate --format text"])
        let group = try #require(lines.firstIndex(of: "::group::All diagnostics (12 errors, 13 warnings)"))
        #expect(lines[group + 26] == "::endgroup::" && lines.last == "1 file, 13 organizations: 12 errors, 13 warnings")
        // Every annotation names a file, a line and a column, and a rule id that docs/rules.md explains.
        let rules = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for line in errors + warnings {
            #expect(line.hasPrefix("::error file=root.level1.json,line=") || line.hasPrefix("::warning file=root.level1.json,line="), "\(line)")
            #expect(line.contains(",col="), "\(line)")
            let title = try #require(line.split(separator: "title=").last?.split(separator: ":").first)
            #expect(DiagnosticRule(rawValue: String(title)) != nil && rules.contains("`\(title)`"), "\(line)")
        }
    }

    @Test("SARIF: a run holds at most GitHub's 25,000 results, errors first, and a notification says how many were left out")
    func sarifResultLimit() throws {
        let directory = try TestPaths.temporaryDirectory()
        // 30 clubs without coordinates (errors, each twice: missing-key and no usable entry is one rule each)
        // and one club with 25,100 unknown keys (warnings).
        let broken = (0..<30).map { #"{"idPlus": {"town": "T\#($0)", "fullName": "Broken \#($0)", "nickName": "b\#($0)"}}"# }
        let keys = (0..<25_100).map { "\"k\($0)\": 1" }.joined(separator: ",")
        let padded = #"{"idPlus": {"town": "T", "fullName": "Club", "nickName": "c"}, "coordinates": {"latitude": 50, "longitude": 5}, "# + keys + "}"
        _ = try directory.write("root.level1.json", #"{"clubs": [\#((broken + [padded]).joined(separator: ",\n"))]}"#)
        let json = try JSONSerialization.jsonObject(with: try CITestSupport.hubgeo(in: directory.url, ["validate", "root.level1.json", "--format", "json"]).stdout)
            as? [String: Any]
        let errors = try #require(json?["errors"] as? Int), warnings = try #require(json?["warnings"] as? Int)
        #expect(errors >= 30 && errors + warnings > SARIFReport.resultLimit)

        let sarif = try CITestSupport.hubgeo(in: directory.url, ["validate", "root.level1.json", "--format", "sarif"])
        #expect(sarif.status == 1, "\(sarif.stderr)")
        let file = directory.url.appendingPathComponent("out.sarif")
        try sarif.stdout.write(to: file)
        let schema = TestPaths.packageRoot.appendingPathComponent(".build/sarif-schema/sarif-2.1.0.json")
        let check = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"), ["--schemafile", schema.path, file.path])
        #expect(check.status == 0, "\(check.text)\(check.stderr)")
        let summary = try CommandRunner.run(try CITestSupport.pythonTool("sarif"), ["summary", file.path])
        #expect(summary.text.contains("error: \(errors)\n") && summary.text.contains("warning: \(SARIFReport.resultLimit - errors)\n"),
                "\(summary.text)\(summary.stderr)")

        let log = try #require(try JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == SARIFReport.resultLimit)
        #expect(results.count { $0["level"] as? String == "error" } == errors)
        let notification = try #require(((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])?.first)
        let text = try #require((notification["message"] as? [String: Any])?["text"] as? String)
        #expect(text.hasPrefix("\(errors + warnings - SARIFReport.resultLimit) of \(errors + warnings) results left out: "
            + "GitHub's code scanning accepts at most 25000 per run, so this run holds the most severe, all \(errors) errors and "
            + "\(SARIFReport.resultLimit - errors) of \(warnings) warnings"), "\(text)")
    }

    @Test("SARIF: valid against the SARIF 2.1.0 schema, read by sarif-tools, rules and results as the JSON report has them")
    func sarifThroughSarifTools() throws {
        let (directory, _, changed) = try Self.trees()
        let sarif = try CITestSupport.hubgeo(in: changed, ["validate", "JSON", "--format", "sarif"])
        let file = directory.url.appendingPathComponent("out.sarif")
        try sarif.stdout.write(to: file)
        let schema = TestPaths.packageRoot.appendingPathComponent(".build/sarif-schema/sarif-2.1.0.json")
        let check = try CommandRunner.run(try CITestSupport.pythonTool("check-jsonschema"), ["--schemafile", schema.path, file.path])
        #expect(check.status == 0, "\(check.text)\(check.stderr)")

        let json = try JSONSerialization.jsonObject(with: try CITestSupport.hubgeo(in: changed, ["validate", "JSON", "--format", "json"]).stdout)
            as? [String: Any]
        let errors = try #require(json?["errors"] as? Int), warnings = try #require(json?["warnings"] as? Int)
        let summary = try CommandRunner.run(try CITestSupport.pythonTool("sarif"), ["summary", file.path])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.text.contains("error: \(errors)\n") && summary.text.contains("warning: \(warnings)\n"), "\(summary.text)")
        #expect(summary.text.contains("include-name") && summary.text.contains("wrong-type"))
        let list = try CommandRunner.run(try CITestSupport.pythonTool("sarif"), ["ls", file.path])
        #expect(list.status == 0 && list.text.contains("out.sarif"), "\(list.text)\(list.stderr)")

        let log = try #require(try JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == DiagnosticRule.allCases.map(\.id))
        #expect(rules.allSatisfy { ($0["help"] as? [String: Any])?["text"] != nil && ($0["defaultConfiguration"] as? [String: Any])?["level"] != nil })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == errors + warnings)
        let quoted = try #require(results.first { $0["ruleId"] as? String == "wrong-type" })
        let location = try #require((quoted["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "JSON/clubsNL16.level1.json")
        #expect((physical["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String == "SRCROOT")
        let region = try #require(physical["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 75 && region["startColumn"] as? Int == 17)
        #expect((location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String == "clubs[2].coordinates.latitude")
    }
}
