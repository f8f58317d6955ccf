import Foundation
import HubGeoModel

/// `validate --format github`: GitHub Actions workflow commands, one annotation per diagnostic
/// (`::error file=F,line=L,col=C,endLine=E,endColumn=EC,title=RULE::message`). GitHub shows at
/// most 10 error and 10 warning annotations of a step, so errors come first and at most
/// ``limit`` of each are annotated; a notice then counts what was not, and the full list
/// follows in a collapsed group of the log. The summary ends it.
package struct GitHubAnnotations {
    /// Annotations of one severity that GitHub shows per step.
    package static let limit = 10

    package var paths: ReportPaths

    package init(paths: ReportPaths) {
        self.paths = paths
    }

    /// The lines to print.
    package func lines(_ report: ValidationReport) -> [String] {
        let errors = report.diagnostics.filter { $0.severity == .error }
        let warnings = report.diagnostics.filter { $0.severity == .warning }
        var lines = (errors.prefix(Self.limit) + warnings.prefix(Self.limit)).map(command)
        let hiddenErrors = max(0, errors.count - Self.limit), hiddenWarnings = max(0, warnings.count - Self.limit)
        if hiddenErrors + hiddenWarnings > 0 {
            var hidden: [String] = []
            if hiddenErrors > 0 { hidden.append("\(counted(hiddenErrors, "more error"))") }
            if hiddenWarnings > 0 { hidden.append("\(counted(hiddenWarnings, "more warning"))") }
            lines.append("::notice title=hubgeo validate::" + Self.escapeData(
                "\(hidden.joined(separator: " and ")) not shown as annotations (GitHub shows \(Self.limit) of each per step): "
                    + "all \(report.diagnostics.count) are listed in this step's log under \"All diagnostics\", "
                    + "or run hubgeo validate --format text"))
            lines.append("::group::All diagnostics (\(report.errorCount) errors, \(report.warningCount) warnings)")
            lines += report.diagnostics.map { diagnostic in
                var text = diagnostic
                text.file = paths.relative(diagnostic.file)
                return Self.escapeLog(TextReport.line(text))
            }
            lines.append("::endgroup::")
        }
        lines.append(Self.escapeLog(report.summary))
        return lines
    }

    /// One workflow command: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=RULE::JSON path: message`.
    package func command(_ diagnostic: Diagnostic) -> String {
        var properties = ["file=" + Self.escapeProperty(paths.relative(diagnostic.file))]
        if let line = diagnostic.line { properties.append("line=\(line)") }
        if let column = diagnostic.column { properties.append("col=\(column)") }
        if let endLine = diagnostic.endLine { properties.append("endLine=\(endLine)") }
        // GitHub ignores an end column unless the annotation is on one line.
        if let endColumn = diagnostic.endColumn, diagnostic.endLine == diagnostic.line { properties.append("endColumn=\(endColumn)") }
        properties.append("title=" + diagnostic.rule.id)
        let message = (diagnostic.jsonPath.isEmpty ? "" : diagnostic.jsonPath + ": ") + diagnostic.message
        return "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(Self.escapeData(TerminalSafe.escaped(message)))"
    }

    /// A command's message: `%`, CR and LF escaped as the runner expects, and a `##[` of the data
    /// written `%23%23[` (``WorkflowCommandSafe``), so no line holds one.
    static func escapeData(_ text: String) -> String {
        WorkflowCommandSafe.escapedMarkers(text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A"))
    }

    /// A command's property value: also `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// A plain log line that must not read as a workflow command (``WorkflowCommandSafe``: the
    /// runner trims leading white space before it looks for `::`, and acts on `##[` anywhere).
    static func escapeLog(_ text: String) -> String {
        WorkflowCommandSafe.logLine(TerminalSafe.escaped(text))
    }
}
