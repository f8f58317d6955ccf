import HubGeoModel

/// `validate --format gcc`, the default in a GitHub Actions step: one line per diagnostic in the
/// order compilers and shellcheck's `--format gcc` use, `file:line:column: severity: JSON path:
/// message [rule]`, then the summary. The problem matcher `.github/hubgeo-matcher.json` (which
/// the action registers) turns each line into an annotation, and the log keeps every line with
/// its location, past GitHub's 10 annotations of each severity per step.
///
/// Each line is one line whatever the data holds: control characters (line breaks included) are
/// escaped (``TerminalSafe``). What would start a workflow command is escaped where the line is
/// printed (the console's ``WorkflowCommandSafe/logLine(_:marker:colon:)`` in a GitHub log).
package struct GCCReport {
    package var paths: ReportPaths

    package init(paths: ReportPaths) {
        self.paths = paths
    }

    /// The line of one diagnostic: `file:line:column: severity: JSON path: message [rule]` (the line,
    /// column and JSON path only when known).
    package func line(_ diagnostic: Diagnostic) -> String {
        var location = paths.relative(diagnostic.file)
        if let line = diagnostic.line {
            location += ":\(line)"
            if let column = diagnostic.column { location += ":\(column)" }
        }
        let message = (diagnostic.jsonPath.isEmpty ? "" : diagnostic.jsonPath + ": ") + diagnostic.message
        return TerminalSafe.escaped("\(location): \(diagnostic.severity.rawValue): \(message) [\(diagnostic.rule.id)]")
    }

    /// Every diagnostic's line, in the report's order.
    package func lines(_ report: ValidationReport) -> [String] {
        report.diagnostics.map(line)
    }
}
