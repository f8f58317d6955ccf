import ArgumentParser
import Foundation
import HubGeo

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two Photo Club Hub trees organization by organization, as a reviewer of a change wants to see it.",
        discussion: """
            OLD and NEW are folders (their root_.level1.json or root.level1.json), Level 1 files or http(s) URLs, \\
            each read with its includes and Level 2 files as an import reads them; with --db, OLD is what the \\
            database holds (the last import) and only NEW is given. Organizations are matched by identity (town \\
            and full name): added, removed, probable renames (a removed and an added one with the same full name \\
            or nickname within 1 km, as import reports them), moved (new coordinates, with the distance, largest \\
            first) and changed fields.
            Exit status: 0 when the trees are equal, 1 when they differ (as diff), 2 when a tree cannot be read, \\
            64 for a usage error.
            """)

    @Argument(help: ArgumentHelp("OLD and NEW (only NEW with --db).", valueName: "tree"))
    var trees: [String] = []

    @Option(help: ArgumentHelp("Output format: text, json or github.", discussion: "Default: github when GITHUB_ACTIONS=true, else text."))
    var format: DiffFormat?

    @Option(name: .customLong("warn-moved"), help: ArgumentHelp("Report a move over this many kilometres as a warning.", valueName: "km"))
    var warnMoved: Double?

    @Flag(help: "Compare NEW with the organizations the database holds (the last import).")
    var db = false

    @Option(name: .customLong("database"), help: ArgumentHelp("The database for --db.",
                                                             discussion: "Default: $HUBGEO_DB, else $XDG_DATA_HOME/hubgeo/hubgeo.sqlite.",
                                                             valueName: "path"))
    var databasePath: String?

    @Flag(name: .customLong("follow-include-urls"), help: "Follow each include's URL as written instead of reading its NAME.level1.json next to the including file.")
    var followIncludeURLs = false

    func validate() throws {
        if db {
            guard trees.count == 1 else { throw ValidationError("with --db, give one tree: NEW") }
        } else {
            guard trees.count == 2 else { throw ValidationError("give two trees, OLD and NEW (or --db and NEW)") }
            if databasePath != nil { throw ValidationError("--database goes with --db") }
        }
        if let warnMoved, !(warnMoved.isFinite && warnMoved >= 0) {
            throw ValidationError("--warn-moved must be a distance in kilometres, 0 or more")
        }
    }

    func run() throws {
        let format = format ?? (ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" ? .github : .text)
        if format == .github { Console.isGitHubLog = true }
        let reader = DocumentReader.standard(configuration: try HTTPSettings.configuration(), maxFileBytes: try HTTPSettings.maxFileBytes())
        let old: DiffTree, new: DiffTree
        do {
            if db {
                let path = databasePath ?? DatabaseLocation.defaultPath()
                let none = DiffTree.Unreadable(description: "\(path): no imported organizations to compare")
                guard FileManager.default.fileExists(atPath: path) else { throw none }
                let store = try OrganizationStore(path: path, access: .readOnly)
                guard try !store.isEmpty() else { throw none }
                old = DiffTree(source: path, organizations: try store.all().map(\.organization))
            } else {
                old = try DiffTree.read(DocumentLocation(argument: trees[0]), reader: reader, followsIncludeURLs: followIncludeURLs)
            }
            new = try DiffTree.read(DocumentLocation(argument: trees[trees.count - 1]), reader: reader, followsIncludeURLs: followIncludeURLs)
        } catch {
            Console.note("Error: \(error)")
            throw ExitCode(2)
        }
        let report = DiffReport(diff: TreeDiff(old: old.organizations, new: new.organizations), old: old, new: new,
                                warnMovedKilometers: warnMoved)
        let paths = ReportPaths.current()
        switch format {
        case .text:
            for line in report.textLines(paths: paths) { Console.print(line) }
            for warning in report.warnings { Console.note(warning) }
        case .github:
            for line in report.githubLines(paths: paths) { Console.printVerbatim(line) }
        case .json:
            Console.printVerbatim(String(decoding: try report.json(), as: UTF8.self))
        }
        if !report.diff.isEqual { throw ExitCode(1) }
    }
}

enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case github
}
