import Foundation
import Testing

/// What the CI-output tests share: the real Photo Club Hub data in the repository's `Data/`, a changed
/// copy of it, hubgeo run in a folder (paths in annotations are relative to it), the pinned Python
/// tools of `make python-tools`, and golden files.
package enum CITestSupport {
    /// `Data/`: upstream's JSON folder, verbatim (see its SOURCE.md).
    package static let realData = TestPaths.packageRoot.appendingPathComponent("Data")

    /// The Python tool `name` of `make python-tools` (.build/python-tools/bin), else on PATH.
    package static func pythonTool(_ name: String) throws -> URL {
        let pinned = TestPaths.packageRoot.appendingPathComponent(".build/python-tools/bin/\(name)")
        if FileManager.default.isExecutableFile(atPath: pinned.path) { return pinned }
        guard let found = CommandRunner.which(name) else {
            throw CommandRunner.Failure(description: "\(name) is not installed: make python-tools")
        }
        return found
    }

    /// A copy of the real data's JSON files at `folder/JSON`, as upstream's JSON folder holds them.
    @discardableResult
    package static func copyRealData(into folder: URL) throws -> URL {
        let target = folder.appendingPathComponent("JSON")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: realData.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(at: realData.appendingPathComponent(name), to: target.appendingPathComponent(name))
        }
        return target
    }

    /// Text edits of a copy of the real data: Lianzhou and Fotografiska Shanghai get each other's
    /// coordinates back (a move of 1,143 km each), Collectief Brabant's town is edited (a probable
    /// rename), Foam's website goes http, clubsNL.level1.json includes clubsNL03.json (not
    /// NAME.level1.json: skipped, its ten clubs gone) and a latitude of clubsNL16 is quoted.
    package static func changeCopy(_ json: URL) throws {
        func edit(_ name: String, _ pairs: [(String, String)]) throws {
            let url = json.appendingPathComponent(name)
            var text = try String(contentsOf: url, encoding: .utf8)
            for (old, new) in pairs {
                guard let range = text.range(of: old) else { throw CommandRunner.Failure(description: "\(name): no \(old)") }
                text.replaceSubrange(range, with: new)
            }
            try Data(text.utf8).write(to: url)
        }
        try edit("museumsCN.level1.json", [("\"latitude\": 31.24236", "\"latitude\": @A"), ("\"longitude\": 121.45586", "\"longitude\": @B"),
                                           ("\"latitude\": 24.78468", "\"latitude\": 31.24236"), ("\"longitude\": 112.38392", "\"longitude\": 121.45586"),
                                           ("@A", "24.78468"), ("@B", "112.38392")])
        try edit("clubsNL16.level1.json", [("\"town\": \"Waalwijk\"", "\"town\": \"Waalwijk-Besoijen\""),
                                           ("\"latitude\": 51.663059,", "\"latitude\": \"51.663059\",")])
        try edit("museumsNL.level1.json", [("\"website\": \"https://www.foam.org\"", "\"website\": \"http://www.foam.org\"")])
        try edit("clubsNL.level1.json", [("clubsNL03.level1.json\"", "clubsNL03.json\"")])
    }

    /// hubgeo with `arguments`, run in `directory` with `environment` added (and GITHUB_ACTIONS
    /// removed unless given), its database in `directory`.
    package static func hubgeo(in directory: URL, _ arguments: [String], environment extra: [String: String] = [:],
                       timeout: TimeInterval = 120) throws -> CommandRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = nil
        environment["HUBGEO_DB"] = directory.appendingPathComponent("hub.sqlite").path
        environment.merge(extra) { $1 }
        return try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory.path, try CommandRunner.hubgeo.path] + arguments,
                                     environment: environment, timeout: timeout)
    }

    /// Compares `actual` with the golden file `ci/NAME` (HUBGEO_UPDATE_GOLDEN=1 rewrites it).
    package static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = TestPaths.fixtures.appendingPathComponent("golden/ci/\(name)")
        if ProcessInfo.processInfo.environment["HUBGEO_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if actual != expected {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-golden-actual-\(name)")
            try? Data(actual.utf8).write(to: kept)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actualLines.count, expectedLines.count)
            Issue.record("\(name) differs from its golden file at line \(first + 1); actual output in \(kept.path)",
                         sourceLocation: sourceLocation)
        }
    }

    /// `text` with the temporary folder `directory` written as `<tree>`.
    package static func stable(_ text: String, _ directory: URL) -> String {
        text.replacingOccurrences(of: directory.standardizedFileURL.path, with: "<tree>")
            .replacingOccurrences(of: directory.path, with: "<tree>")
    }
}
