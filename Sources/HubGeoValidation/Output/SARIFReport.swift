import Foundation
import HubGeoJSON
import HubGeoModel

/// `validate --format sarif`: the report as SARIF 2.1.0 (OASIS), for code-scanning upload: one
/// run of the tool `hubgeo`, every ``DiagnosticRule`` as a rule (id, title, help, default level),
/// and one result per diagnostic with its physical location (the file relative to the
/// checkout, `SRCROOT`, with line, column and end) and its JSON path as a logical location.
/// GitHub's code scanning refuses a run of more than ``resultLimit`` results: a larger report
/// keeps its most severe ones (every error before any warning), in the report's order, and says
/// in the run's `invocations[0].toolExecutionNotifications` how many it left out.
public struct SARIFReport {
    /// The most results GitHub accepts in one run of an uploaded SARIF file.
    public static let resultLimit = 25_000

    /// How the report names files.
    public var paths: ReportPaths

    /// A SARIF report naming files with `paths`.
    public init(paths: ReportPaths) {
        self.paths = paths
    }

    /// The SARIF document, pretty-printed with sorted keys.
    public func data(_ report: ValidationReport) throws -> Data {
        Data(try PrettyJSON.string(log(report)).utf8)
    }

    func log(_ report: ValidationReport) -> Log {
        let rules = DiagnosticRule.allCases
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        let driver = Driver(
            name: "hubgeo", semanticVersion: HubGeoVersion.current, version: HubGeoVersion.current,
            informationUri: "https://github.com/vdhamer/Photo-Club-Hub",
            rules: rules.map { rule in
                Rule(id: rule.id, name: Self.pascalCase(rule.id), shortDescription: Text(text: rule.title),
                     fullDescription: Text(text: rule.help), help: Text(text: rule.help),
                     defaultConfiguration: Configuration(level: rule.defaultSeverity.rawValue))
            })
        let (kept, notifications) = Self.withinLimit(report)
        let results = kept.map { diagnostic -> Result in
            let relative = paths.relative(diagnostic.file)
            let isRemote = relative.hasPrefix("http://") || relative.hasPrefix("https://")
            let inside = !isRemote && !relative.hasPrefix("/")
            let artifact = ArtifactLocation(uri: inside ? Self.uriPath(relative) : (isRemote ? relative : "file://" + Self.uriPath(relative)),
                                            uriBaseId: inside ? "SRCROOT" : nil)
            let region = Region(startLine: diagnostic.line ?? 1, startColumn: diagnostic.column ?? 1,
                                endLine: diagnostic.endLine, endColumn: diagnostic.endColumn.map { $0 + 1 })
            var logical: [LogicalLocation]?
            if !diagnostic.jsonPath.isEmpty {
                let isElement = if case .index? = JSONPath.components(of: diagnostic.jsonPath).last?.step { true } else { false }
                logical = [LogicalLocation(fullyQualifiedName: diagnostic.jsonPath, kind: isElement ? "element" : "property")]
            }
            return Result(ruleId: diagnostic.rule.id, ruleIndex: index[diagnostic.rule] ?? 0, level: diagnostic.severity.rawValue,
                          message: Text(text: diagnostic.message),
                          locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: artifact, region: region),
                                               logicalLocations: logical)],
                          fixes: Self.fixes(diagnostic.suggestion, artifact: artifact))
        }
        let root = URL(fileURLWithPath: paths.base, isDirectory: true).absoluteString
        return Log(runs: [Run(tool: Tool(driver: driver),
                              invocations: notifications.map { [Invocation(executionSuccessful: true, toolExecutionNotifications: $0)] },
                              originalUriBaseIds: ["SRCROOT": ArtifactLocation(uri: root, uriBaseId: nil)],
                              results: results, columnKind: "unicodeCodePoints")])
    }

    /// The fix of a suggestion whose `coordinates` member was found in its file: that member,
    /// from its key to its value's end, replaced by one with the suggested pair.
    static func fixes(_ suggestion: CoordinateSuggestion?, artifact: ArtifactLocation) -> [Fix]? {
        guard let suggestion, let line = suggestion.line, let column = suggestion.column else { return nil }
        let region = Region(startLine: line, startColumn: column, endLine: suggestion.endLine, endColumn: suggestion.endColumn.map { $0 + 1 })
        let pair = "\"coordinates\": { \"latitude\": \(CoordinateSuggestion.degrees(suggestion.latitude)), "
            + "\"longitude\": \(CoordinateSuggestion.degrees(suggestion.longitude)) }"
        return [Fix(description: Text(text: "Use the coordinates of \(suggestion.place), found by searching \"\(suggestion.query)\""),
                    artifactChanges: [ArtifactChange(artifactLocation: artifact,
                                                     replacements: [Replacement(deletedRegion: region, insertedContent: Text(text: pair))])])]
    }

    /// The diagnostics to write, at most ``resultLimit``, the errors chosen before the warnings, in
    /// the report's order; and when some are left out, the notification that says so.
    static func withinLimit(_ report: ValidationReport, limit: Int = resultLimit) -> ([Diagnostic], [Notification]?) {
        guard report.diagnostics.count > limit else { return (report.diagnostics, nil) }
        let errors = report.diagnostics.filter { $0.severity == .error }, warnings = report.diagnostics.filter { $0.severity == .warning }
        let keptErrors = min(errors.count, limit), keptWarnings = limit - keptErrors
        var kept = Array(errors.prefix(keptErrors))
        kept += warnings.prefix(keptWarnings)
        kept.sort()
        let left = report.diagnostics.count - limit
        let what = keptErrors < errors.count
            ? "\(keptErrors) of \(errors.count) errors and none of the \(warnings.count) warnings"
            : "all \(errors.count) errors and \(keptWarnings) of \(warnings.count) warnings"
        let text = "\(left) of \(report.diagnostics.count) results left out: GitHub's code scanning accepts at most \(limit) per run, "
            + "so this run holds the most severe, \(what); run hubgeo validate --format text (or json) for all"
        return (kept, [Notification(level: "warning", message: Text(text: text), descriptor: Descriptor(id: "results-limit"))])
    }

    /// "orphan-level2" -> "OrphanLevel2".
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative path as a URI reference (each segment percent-encoded).
    static func uriPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }.joined(separator: "/")
    }

    // MARK: - The SARIF 2.1.0 objects used

    struct Log: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }

    struct Run: Encodable {
        var tool: Tool
        /// Only when results were left out (``withinLimit(_:limit:)``).
        var invocations: [Invocation]?
        var originalUriBaseIds: [String: ArtifactLocation]
        var results: [Result]
        var columnKind: String
    }

    struct Tool: Encodable { var driver: Driver }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]
    }

    struct Notification: Encodable {
        var level: String
        var message: Text
        var descriptor: Descriptor
    }

    struct Descriptor: Encodable { var id: String }

    struct Driver: Encodable {
        var name: String
        var semanticVersion: String
        var version: String
        var informationUri: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var defaultConfiguration: Configuration
    }

    struct Configuration: Encodable { var level: String }

    struct Text: Encodable { var text: String }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
        var fixes: [Fix]?
    }

    /// A proposed change (SARIF §3.55): its description and the replacements in one file.
    struct Fix: Encodable {
        var description: Text
        var artifactChanges: [ArtifactChange]
    }

    struct ArtifactChange: Encodable {
        var artifactLocation: ArtifactLocation
        var replacements: [Replacement]
    }

    /// The region deleted and the text put in its place.
    struct Replacement: Encodable {
        var deletedRegion: Region
        var insertedContent: Text
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    /// Lines and columns from 1; SARIF's end column is just past the last character.
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
        var endLine: Int?
        var endColumn: Int?
    }

    struct LogicalLocation: Encodable {
        var fullyQualifiedName: String
        var kind: String
    }
}
