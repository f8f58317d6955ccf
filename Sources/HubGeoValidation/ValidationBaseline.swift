import HubGeoModel

/// `validate --baseline BASE`: the problems a change introduces. The same inputs are checked in
/// the tree as it was (BASE, the pull request's base) and as it is; a problem of the new tree is
/// left as it was when the old tree has one of the same rule, in the same file (relative to its
/// tree's root) at the same JSON path. Lines are not compared: an edit above a problem moves it
/// without changing it. Problems that share rule, file and JSON path are counted: a second one
/// where the old tree had one is new.
package struct ValidationBaseline: Sendable, Equatable, Codable {
    /// The folder as the user typed it.
    package var folder: String
    /// Errors of the new tree that the old one had too (not reported).
    package var unchangedErrors: Int
    /// Warnings of the new tree that the old one had too (not reported).
    package var unchangedWarnings: Int
    /// Problems of the old tree that the new one no longer has.
    package var fixed: Int

    private struct Key: Hashable {
        var rule: DiagnosticRule
        var file: String
        var jsonPath: String
    }

    /// Splits `current` (the tree under `currentRoot`) against `base` (the same inputs under
    /// `baseRoot`): the report of the problems `current` introduces, and the counts of the rest.
    package static func compare(_ current: ValidationReport, root currentRoot: ReportPaths, base: ValidationReport,
                                baseRoot: ReportPaths, folder: String) -> (report: ValidationReport, baseline: ValidationBaseline) {
        var remaining: [Key: Int] = [:]
        for diagnostic in base.diagnostics {
            remaining[Key(rule: diagnostic.rule, file: baseRoot.relative(diagnostic.file), jsonPath: diagnostic.jsonPath), default: 0] += 1
        }
        var baseline = ValidationBaseline(folder: folder, unchangedErrors: 0, unchangedWarnings: 0, fixed: 0)
        var introduced: [Diagnostic] = []
        for diagnostic in current.diagnostics {
            let key = Key(rule: diagnostic.rule, file: currentRoot.relative(diagnostic.file), jsonPath: diagnostic.jsonPath)
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                if diagnostic.severity == .error { baseline.unchangedErrors += 1 } else { baseline.unchangedWarnings += 1 }
            } else {
                introduced.append(diagnostic)
            }
        }
        baseline.fixed = remaining.values.reduce(0, +)
        var report = current
        report.diagnostics = introduced
        return (report, baseline)
    }

    /// "against the baseline ../base: 3 errors and 104 warnings left as they were (not shown), 1 fixed".
    package var summary: String {
        "against the baseline \(folder): \(counted(unchangedErrors, "error")) and \(counted(unchangedWarnings, "warning")) "
            + "left as they were (not shown), \(fixed) fixed"
    }
}
