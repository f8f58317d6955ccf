import HubGeoModel

/// `validate --format text`: one line per diagnostic, `file:line:column: JSON path: severity:
/// message [rule]`, then the summary.
package enum TextReport {
    package static func line(_ diagnostic: Diagnostic) -> String {
        var location = diagnostic.file
        if let line = diagnostic.line {
            location += ":\(line)"
            if let column = diagnostic.column { location += ":\(column)" }
        }
        if !diagnostic.jsonPath.isEmpty { location += ": \(diagnostic.jsonPath)" }
        return "\(location): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule.id)]"
    }
}
