import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// What the GitHub Actions runner reads as workflow commands in hubgeo's output when the data is
/// hostile: names, towns, remarks, keys and file names holding `##[add-mask]`, `##[stop-commands]`
/// and `::error ...::`. The output is read as the runner reads it (actions/runner `ActionCommand`):
/// split into lines at `\r\n`, `\n` and `\r`; `TryParseV2` on the line with its leading white
/// space trimmed; the legacy `TryParse` at `IndexOf("##[")`.
@Suite("Workflow commands: hostile data cannot make or silence one", .serialized)
struct WorkflowCommandTests {
    /// The runner's reading of one line.
    struct RunnerCommand: Equatable {
        var name: String
        var properties: [String: String]
        var legacy: Bool
    }

    static func runnerLines(_ output: String) -> [String] {
        output.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The commands the runner reads in `line`: `::name k=v,...::data` after trimming (TryParseV2),
    /// and a `##[` anywhere (TryParse; any name, whether the runner knows it or not, counts).
    static func commands(in line: String) -> [RunnerCommand] {
        var found: [RunnerCommand] = []
        var trimmed = Substring(line)
        while let first = trimmed.unicodeScalars.first, first.properties.isWhitespace { trimmed = trimmed.dropFirst() }
        if trimmed.hasPrefix("::"), let end = trimmed.dropFirst(2).range(of: "::") {
            let info = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<end.lowerBound]
            let name = info.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            var properties: [String: String] = [:]
            if let space = info.firstIndex(of: " ") {
                for pair in info[info.index(after: space)...].split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 {
                        properties[String(parts[0])] = parts[1].replacingOccurrences(of: "%3A", with: ":")
                            .replacingOccurrences(of: "%2C", with: ",").replacingOccurrences(of: "%25", with: "%")
                    }
                }
            }
            found.append(RunnerCommand(name: name, properties: properties, legacy: false))
        }
        // A comparison that skips format characters (U+200B, U+00AD) and combining marks must not find one either.
        let visible = String(String.UnicodeScalarView(line.unicodeScalars.filter {
            ![.format, .nonspacingMark, .enclosingMark, .control].contains($0.properties.generalCategory)
        }))
        if line.contains("##[") || visible.contains("##[") { found.append(RunnerCommand(name: "##[", properties: [:], legacy: true)) }
        return found
    }

    static let hostile = ["##[add-mask]Town", "##[stop-commands]x", "::error title=spoofed::nick", "#\u{200B}#[add-mask]y", "###[group]z"]

    /// A folder whose data holds `##[` and `::` in every kind of text, in files with such names,
    /// with enough findings (over 10 warnings) that the full list is printed in a log group.
    static func hostileTree(_ directory: URL) throws {
        var clubs: [String] = []
        for (index, text) in hostile.enumerated() {
            // Identical coordinates: a warning naming both organizations; a padded remark; an unknown key.
            for copy in 0..<2 {
                clubs.append(Level1Builder.record(.init(
                    town: text, fullName: "\(text) \(copy)", nickName: "\(text)\(copy)", latitude: 50 + Double(index), longitude: 5,
                    optional: #"{"remark": [{"language": "EN", "value": " \#(text) "}], \#(Level1Builder.quoted(text)): 1}"#)))
            }
        }
        try Data(#"{"clubs": [\#(clubs.joined(separator: ",\n"))]}"#.utf8).write(to: directory.appendingPathComponent("root.level1.json"))
        for name in ["::error title=spoofed::x.level1.json", " ::warning title=spoofed::y.level1.json",
                     "\u{3000}::notice title=spoofed::z.level1.json", "\u{200B}::error title=spoofed::w.level1.json",
                     "##[add-mask]level1.level1.json"] {
            try Data(###"{"clubs": [{"idPlus": {"town": "##[add-mask]T", "fullName": "F"}}]}"###.utf8)
                .write(to: directory.appendingPathComponent(name))
        }
    }

    /// The lines of `output` that the runner reads as commands, less the ones hubgeo means.
    static func unexpected(_ output: String, titles: Set<String>) -> [String] {
        runnerLines(output).filter { line in
            commands(in: line).contains { command in
                guard !command.legacy else { return true }
                switch command.name {
                case "group", "endgroup": return false
                case "error", "warning", "notice": return !titles.contains(command.properties["title"] ?? "")
                default: return true
                }
            }
        }
    }

    static let validateTitles = Set(DiagnosticRule.allCases.map(\.id) + ["hubgeo validate"])

    @Test("validate --format github: only hubgeo's annotations and group, titled with rule ids; no ##[ on any line")
    func validateGitHub() throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.hostileTree(directory.url)
        for environment in [[:], ["GITHUB_ACTIONS": "true"]] {
            let result = try CITestSupport.hubgeo(in: directory.url, ["validate", ".", "--format", "github"], environment: environment)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.text.contains("::group::All diagnostics"), "\(result.text)")
            #expect(Self.unexpected(result.text + "\n" + result.stderr, titles: Self.validateTitles) == [])
            // Readable: the escape is GitHub's own percent-encoding.
            #expect(result.text.contains("%23%23[add-mask]Town") && result.text.contains("%3A%3Aerror title=spoofed::x.level1.json:"),
                    "\(result.text)")
        }
    }

    @Test("validate's default with GITHUB_ACTIONS=true (gcc lines for the problem matcher): no line is a workflow command")
    func validateDefaultInActions() throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.hostileTree(directory.url)
        let result = try CITestSupport.hubgeo(in: directory.url, ["validate", "."], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(Self.unexpected(result.text + "\n" + result.stderr, titles: []) == [], "\(result.text)")
        // The file named as a command starts its line, escaped with GitHub's percent-encoding; the data's ##[ too.
        #expect(result.text.contains("\n%3A%3Aerror title=spoofed::x.level1.json:1:"), "\(result.text)")
        #expect(result.text.contains("%23%23[stop-commands]x") && !result.text.contains("##["))
    }

    @Test("validate --format text and json with GITHUB_ACTIONS=true: no line is a workflow command; the JSON holds the data exactly")
    func validateTextAndJSONInActions() throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.hostileTree(directory.url)
        let text = try CITestSupport.hubgeo(in: directory.url, ["validate", ".", "--format", "text"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(text.status == 1 && text.text.contains("%23%23[stop-commands]x"), "\(text.text)")
        #expect(Self.unexpected(text.text + "\n" + text.stderr, titles: []) == [])
        let json = try CITestSupport.hubgeo(in: directory.url, ["validate", ".", "--format", "json"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(Self.unexpected(json.text + "\n" + json.stderr, titles: []) == [])
        let plain = try CITestSupport.hubgeo(in: directory.url, ["validate", ".", "--format", "json"])
        #expect(try JSONSerialization.jsonObject(with: json.stdout) as? NSDictionary == JSONSerialization.jsonObject(with: plain.stdout) as? NSDictionary)
        #expect(plain.text.contains("##[add-mask]Town"))
    }

    @Test("diff --format github and text with GITHUB_ACTIONS=true: no line is a command hubgeo does not mean")
    func diff() throws {
        let directory = try TestPaths.temporaryDirectory()
        let old = directory.url.appendingPathComponent("old"), new = directory.url.appendingPathComponent("new")
        for folder in [old, new] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Self.hostileTree(new)
        try Data(Level1Builder.level1(clubs: [.init(town: "Town", fullName: "Club", nickName: "club", latitude: 51, longitude: 5)]).utf8)
            .write(to: old.appendingPathComponent("root.level1.json"))
        let titles: Set<String> = ["hubgeo diff", "diff-added", "diff-removed", "diff-moved", "diff-changed", "diff-renamed"]
        for format in ["github", "text"] {
            let result = try CITestSupport.hubgeo(in: directory.url, ["diff", "old", "new", "--format", format], environment: ["GITHUB_ACTIONS": "true"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.text.contains("%23%23[add-mask]Town"), "\(result.text)")
            #expect(Self.unexpected(result.text + "\n" + result.stderr, titles: format == "github" ? titles : []) == [], "\(result.text)")
        }
    }

    @Test("the escape itself: ##[ and a leading :: after any white space or ignorable character, nothing else")
    func escape() {
        #expect(WorkflowCommandSafe.logLine("a ##[add-mask]b ###[x] #[ ## [") == "a %23%23[add-mask]b #%23%23[x] #[ ## [")
        #expect(WorkflowCommandSafe.logLine("\u{3000}\t::error::x :: y") == "\u{3000}\t%3A%3Aerror::x :: y")
        #expect(WorkflowCommandSafe.logLine("\u{200B}:\u{AD}:x") == "\u{200B}%3A\u{AD}%3Ax")
        #expect(WorkflowCommandSafe.logLine("x ::error::y") == "x ::error::y")
        let json = ###"{"a": "##[add-mask]b"}"###, escapedJSON = #"{"a": "\u0023\u0023[add-mask]b"}"#
        #expect(WorkflowCommandSafe.escapedMarkers(json: json) == escapedJSON)
        for line in ["::x::y", " ::x::y", "#\u{301}#[x]", "a##[b"] {
            #expect(Self.commands(in: WorkflowCommandSafe.logLine(line)).isEmpty, "\(line)")
        }
    }

    @Test("output written as it is (a query's JSON, an export, the map page) to a pipe in GitHub Actions: no line is a command; the data is the same")
    func rawOutputInActions() throws {
        let directory = try TestPaths.temporaryDirectory()
        // Every hostile text as a name, a town and (with a line break before it) a remark.
        var clubs: [String] = []
        for (index, text) in Self.hostile.enumerated() {
            clubs.append(Level1Builder.record(.init(
                town: text, fullName: "\(text) club", nickName: "n\(index)", latitude: 50 + Double(index) / 10, longitude: 5,
                optional: #"{"remark": [{"language": "EN", "value": "first line\n\#(text)\r\#(text)"}]}"#)))
        }
        try Data(#"{"clubs": [\#(clubs.joined(separator: ",\n"))]}"#.utf8).write(to: directory.url.appendingPathComponent("root.level1.json"))
        let imported = try CITestSupport.hubgeo(in: directory.url, ["import", "root.level1.json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        for arguments in [["near", "50.2", "5", "--km", "100", "--format", "json"], ["search", "club", "--format", "geojson"],
                          ["show", "n0", "--format", "json"], ["export", "geojson"], ["export", "geojson", "--pretty"],
                          ["export", "kml"], ["map", "-o", "-"]] {
            // Through a pipe, as a step's output reaches the runner (the test runner's own capture is a file).
            var environment = ProcessInfo.processInfo.environment
            environment["GITHUB_ACTIONS"] = "true"
            environment["HUBGEO_DB"] = directory.url.appendingPathComponent("hub.sqlite").path
            let actions = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"),
                                                ["-o", "pipefail", "-c", "cd \"$1\" && shift && \"$@\" | cat", "bash", directory.url.path,
                                                 try CommandRunner.hubgeo.path] + arguments, environment: environment, timeout: 120)
            let plain = try CITestSupport.hubgeo(in: directory.url, arguments)
            #expect(actions.status == 0 && plain.status == 0, "\(arguments): \(actions.stderr)")
            #expect(Self.unexpected(actions.text + "\n" + actions.stderr, titles: []) == [], "\(arguments)")
            #expect(!Self.unexpected(plain.text, titles: []).isEmpty, "\(arguments): the data does reach the output")
            if arguments.contains("kml") {
                // The same document: the escapes are XML's own character references.
                // The same document once parsed: canonical XML (xmllint --c14n) of both is the same.
                func canonical(_ data: Data, _ name: String) throws -> Data {
                    let file = directory.url.appendingPathComponent(name)
                    try data.write(to: file)
                    let result = try CommandRunner.tool("xmllint", ["--c14n", file.path], package: "libxml2-utils")
                    #expect(result.status == 0, "\(result.stderr)")
                    return result.stdout
                }
                #expect(try canonical(actions.stdout, "actions.kml") == canonical(plain.stdout, "plain.kml") && plain.stdout.count > 1_000)
            } else if arguments[0] == "map" {
                #expect(actions.text.contains("\\u0023\\u0023[add-mask]") && actions.text.count > 10_000, "\(arguments)")
            } else {
                #expect(try JSONSerialization.jsonObject(with: actions.stdout) as? NSObject == JSONSerialization.jsonObject(with: plain.stdout) as? NSObject,
                        "\(arguments)")
            }
        }
        // Redirected to a file, the runner does not read it: written as it is.
        let file = directory.url.appendingPathComponent("out.geojson").path
        #expect(try CITestSupport.hubgeo(in: directory.url, ["export", "geojson", "-o", file], environment: ["GITHUB_ACTIONS": "true"]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("##[add-mask]Town"))
    }

}
