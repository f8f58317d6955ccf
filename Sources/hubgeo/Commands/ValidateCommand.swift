import ArgumentParser
import Foundation
import HubGeo

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check Level 0, 1 and 2 files and say exactly what is wrong (the database is not touched).",
        discussion: """
            Each INPUT is a Level 0, Level 1 (with its include tree) or Level 2 file, a folder, or an http(s) URL; \
            default: the data built into hubgeo. A folder is checked as its root_.level1.json (or root.level1.json) \
            tree with its Level 2 files, plus every other *.level0/1/2.json file in it that the tree does not reach.
            Errors are what makes an import fail or skip something; warnings are doubtful content an import \
            accepts. Output: file:line:column: JSON path: error|warning: message [rule], sorted, then a summary; \
            each rule id is explained in docs/rules.md. --format gcc prints file:line:column: error|warning: \
            JSON path: message [rule] (the default when GITHUB_ACTIONS=true, for hubgeo's problem matcher), \
            --format github GitHub Actions workflow commands, --format sarif SARIF 2.1.0 for code scanning, \
            --format json the report for scripts.
            --baseline BASE reports only the problems the inputs have and the same inputs under BASE (the tree \
            at a pull request's base, a folder standing for the current directory) do not have, matched by \
            rule, file and JSON path, and says how many it left as they were.
            An include is read by its last path component, NAME.level1.json, from the including file's folder, \
            as the app does (--follow-include-urls: at its URL as written, as app versions from 3.1.0 on do).
            With --geocode, each organization's declared town is also compared with the place Nominatim finds \
            at its coordinates (local names, and the translations `hubgeo localize` cached): a town that matches \
            no name of that place, or coordinates that point at no place, are warnings. Those and (0, 0) \
            coordinates get suggested coordinates from a search of the name and town, or the town, as \
            `hubgeo locate` makes (in the message, the JSON's suggestion, SARIF's fixes). Answers are cached in \
            the database (--db) like those of `localize`; the organizations stored there are not touched.
            Exit status: 0 when there is no error (--strict: no warning either), 1 otherwise.
            """)

    @Argument(help: "Files, folders or URLs to check.")
    var inputs: [String] = []

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(help: ArgumentHelp("Output format: text, gcc, json, github or sarif.",
                               discussion: "Default: gcc when GITHUB_ACTIONS=true, else text."))
    var format: ValidateFormat?

    @Option(help: ArgumentHelp(
        "Report only the problems that are not in the same inputs under this folder.",
        discussion: "The folder holds the tree as it was (a pull request's base) and stands for the current directory: "
            + "each INPUT, a path inside the current directory, is checked again at the same place under it.",
        valueName: "folder"))
    var baseline: String?

    @Flag(name: .customLong("follow-include-urls"), help: "Follow each include's URL as written instead of reading its NAME.level1.json next to the including file.")
    var followIncludeURLs = false

    @Option(name: .customLong("level0"), help: ArgumentHelp(
        "The Level 0 file with the known languages and expertises.",
        discussion: "Default: root.level0.json next to each Level 1 root, else the one built into hubgeo.",
        valueName: "path|url"))
    var level0: String?

    @Flag(help: "Also check each declared town against the place geocoded at its coordinates (Nominatim, cached).")
    var geocode = false

    @Flag(help: "With --geocode: use cached answers only; no network.")
    var offline = false

    @OptionGroup var nominatim: NominatimOptions
    @OptionGroup var zoom: ZoomOption
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if offline && !geocode { throw ValidationError("--offline goes with --geocode") }
        if baseline != nil { _ = try baselineInputs() }
    }

    /// With `--baseline`: the base tree's folder and each input's place in it (nil where it does not exist there).
    private func baselineInputs() throws -> (root: ReportPaths, inputs: [DocumentLocation?]) {
        guard let baseline else { throw ValidationError("no --baseline") }
        var isFolder: ObjCBool = false
        let folder = URL(fileURLWithPath: baseline).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--baseline \(baseline): not a folder (give the tree at the pull request's base, checked out or unpacked)")
        }
        if inputs.isEmpty { throw ValidationError("--baseline needs the files or folders to check, as paths inside the current directory") }
        let current = ReportPaths.current(), root = ReportPaths(base: folder)
        let mapped = try inputs.map { input -> DocumentLocation? in
            guard case .file(let url) = DocumentLocation(argument: input) else {
                throw ValidationError("--baseline compares local files: \(input) is a URL")
            }
            let relative = url.path + "/" == current.base ? "" : current.relative(url.path)
            guard relative != url.path else {
                throw ValidationError("--baseline: \(input) is not inside the current directory, which BASE stands for")
            }
            let path = root.base + relative
            return FileManager.default.fileExists(atPath: path) ? .file(URL(fileURLWithPath: path).standardizedFileURL) : nil
        }
        return (root, mapped)
    }

    func run() throws {
        var validator = Validator(reader: .standard(configuration: try HTTPSettings.configuration(),
                                                    maxFileBytes: try HTTPSettings.maxFileBytes()),
                                  level0: level0.map(DocumentLocation.init(argument:)))
        validator.followsIncludeURLs = followIncludeURLs
        let locations = inputs.isEmpty ? [DocumentLocation.embedded(EmbeddedData.rootName)] : inputs.map(DocumentLocation.init(argument:))
        var report = validator.validate(locations, townCheck: try geocode ? townCheck() : nil)
        var comparison: ValidationBaseline?
        if let baseline {
            let base = try baselineInputs()
            let baseReport = validator.validate(base.inputs.compactMap { $0 })
            (report, comparison) = ValidationBaseline.compare(report, root: .current(), base: baseReport, baseRoot: base.root,
                                                              folder: baseline)
        }
        let environment = ProcessInfo.processInfo.environment
        let format = format ?? ValidateFormat.default(environment: environment)
        if format == .github { Console.isGitHubLog = true }
        switch format {
        case .text:
            for diagnostic in report.diagnostics { Console.print(TextReport.line(diagnostic)) }
            Console.print(report.summary)
            if let comparison { Console.print(comparison.summary) }
            if let townCheck = report.townCheck { Console.print(townCheck.description) }
        case .gcc:
            for line in GCCReport(paths: .problemMatcher(environment: environment)).lines(report) { Console.print(line) }
            Console.print(report.summary)
            if let comparison { Console.print(comparison.summary) }
            if let townCheck = report.townCheck { Console.print(townCheck.description) }
        case .json:
            Console.printVerbatim(try PrettyJSON.string(ValidateJSON(report: report, strict: strict, baseline: comparison)))
        case .github:
            for line in GitHubAnnotations(paths: .current()).lines(report) { Console.printVerbatim(line) }
            if let comparison { Console.print(comparison.summary) }
            if let townCheck = report.townCheck { Console.print(townCheck.description) }
        case .sarif:
            Console.printVerbatim(String(decoding: try SARIFReport(paths: .current()).data(report), as: UTF8.self))
        }
        if report.failed(strict: strict) { throw ExitCode(1) }
    }

    /// The `--geocode` check: the database's geocode cache plus, unless offline, the configured Nominatim.
    private func townCheck() throws -> TownCheck {
        let configuration = try nominatim.configuration(zoom: zoom)
        if !offline && configuration.isPublicServer && configuration.contact == nil {
            throw GeocodeError.contactRequired(configuration.endpoint)
        }
        let store = try OrganizationStore(path: database.resolvedPath)
        let check = TownCheck(store: store, client: offline ? nil : NominatimClient(configuration: configuration),
                              configuration: configuration)
        if !offline {
            Console.note("Checking towns with \(configuration.endpointKey) (zoom \(configuration.zoom), at most one request per "
                + "\(ProgressDisplay.seconds(configuration.minimumInterval)) s; cached in \(store.path)).")
        }
        if isatty(2) == 1 {
            check.progress = { done, total in
                FileHandle.standardError.write(Data("\r\u{1B}[K town check: \(done)/\(total) points".utf8))
                if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
            }
        }
        return check
    }
}

enum ValidateFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case gcc
    case json
    case github
    case sarif

    /// Without --format: in a GitHub Actions step, plain `file:line:column` lines that the log shows
    /// in full and the action's problem matcher annotates (GitHub's workflow-command annotations,
    /// 10 per step, hide the rest: yamllint #357, golangci-lint #4685), else text.
    static func `default`(environment: [String: String]) -> ValidateFormat {
        environment["GITHUB_ACTIONS"] == "true" ? .gcc : .text
    }
}

/// `validate --format json`: the report plus the counts and the verdict.
private struct ValidateJSON: Encodable {
    var files: [String]
    var level0: [String]
    var organizations: Int
    var townCheck: TownCheck.Summary?
    var errors: Int
    var warnings: Int
    var passed: Bool
    var diagnostics: [Diagnostic]
    /// With `--baseline`: what was left as it was (`diagnostics` are the problems introduced).
    var baseline: ValidationBaseline?

    init(report: ValidationReport, strict: Bool, baseline: ValidationBaseline?) {
        self.baseline = baseline
        files = report.files
        level0 = report.level0Sources
        organizations = report.organizations
        townCheck = report.townCheck
        errors = report.errorCount
        warnings = report.warningCount
        passed = !report.failed(strict: strict)
        diagnostics = report.diagnostics
    }
}
