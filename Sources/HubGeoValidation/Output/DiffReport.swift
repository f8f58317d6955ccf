import Foundation
import HubGeoJSON
import HubGeoModel

/// How `hubgeo diff` shows a ``TreeDiff``: text lines for people, GitHub annotations, or JSON.
package struct DiffReport {
    package var diff: TreeDiff
    package var old: DiffTree
    package var new: DiffTree
    /// Moves over this many kilometres are warnings (nil: none is).
    package var warnMovedKilometers: Double?

    package init(diff: TreeDiff, old: DiffTree, new: DiffTree, warnMovedKilometers: Double?) {
        self.diff = diff
        self.old = old
        self.new = new
        self.warnMovedKilometers = warnMovedKilometers
    }

    /// "1,144 km", "12.3 km", "0.04 km".
    package static func kilometers(_ value: Double) -> String {
        if value >= 100 {
            let whole = Int(value.rounded())
            var digits = String(whole)
            var grouped = ""
            while digits.count > 3 {
                grouped = "," + digits.suffix(3) + grouped
                digits.removeLast(3)
            }
            return digits + grouped + " km"
        }
        return String(format: value >= 1 ? "%.1f km" : "%.2f km", value)
    }

    package func isWarning(_ move: TreeDiff.Move) -> Bool {
        warnMovedKilometers.map { move.kilometers > $0 } ?? false
    }

    func describe(_ type: OrganizationType, _ identity: OrganizationIdentity) -> String { "\(type.rawValue) \(identity)" }

    /// One kind of line per finding.
    enum Kind: String {
        case added, removed, renamed = "renamed?", moved, changed
    }

    struct Line {
        var kind: Kind
        /// Without the verb, for a text line that starts with the kind.
        var text: String
        /// With it, for an annotation.
        var message: String
        /// Where it is in the new tree, when it is in it.
        var place: DiffTree.Place?
        var warning = false
    }

    /// What a reviewer looks at first comes first: moves (largest first), renames, changes, then
    /// what was added and removed.
    var findings: [Line] {
        var lines: [Line] = []
        for move in diff.moved {
            var how = "\(Self.kilometers(move.kilometers)): \(FieldChange.describe(move.old)) -> \(FieldChange.describe(move.new))"
            if isWarning(move), let limit = warnMovedKilometers {
                how += " (more than \(Self.kilometers(limit)))"
            }
            let subject = describe(move.type, move.identity)
            lines.append(Line(kind: .moved, text: "\(subject): \(how)", message: "\(subject) moved \(how)",
                              place: new.places[move.identity], warning: isWarning(move)))
        }
        for rename in diff.renamed {
            let same = rename.sameFullName ? "same full name" : "same nickname"
            let text = "\(describe(rename.type, rename.old)) -> \(rename.new) (\(same), \(Int(rename.distanceMeters.rounded())) m apart): "
                + "probably one organization whose town or name was edited"
            lines.append(Line(kind: .renamed, text: text, message: "renamed? " + text, place: new.places[rename.new]))
        }
        for change in diff.changed {
            let text = "\(describe(change.type, change.identity)): " + change.fields.map(\.description).joined(separator: "; ")
            lines.append(Line(kind: .changed, text: text, message: "changed " + text, place: new.places[change.identity]))
        }
        for side in diff.added {
            let text = describe(side.type, side.identity)
            lines.append(Line(kind: .added, text: text, message: text + " added", place: new.places[side.identity]))
        }
        for side in diff.removed {
            let text = describe(side.type, side.identity)
            lines.append(Line(kind: .removed, text: text, message: text + " removed", place: nil))
        }
        return lines
    }

    /// `added     club X (town)` ... then the summary.
    package func textLines(paths: ReportPaths) -> [String] {
        var lines = findings.map { line -> String in
            let at = line.place.map { "  (\(paths.relative($0.file)):\($0.line))" } ?? ""
            return line.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + line.text + at
        }
        lines.append(diff.summary)
        return lines
    }

    /// Warnings for people, for stderr: each move over the limit.
    package var warnings: [String] {
        findings.filter(\.warning).map { "warning: \($0.message)" }
    }

    /// GitHub workflow commands: moves over the limit as warnings (at most 10), everything else as
    /// notices (at most 9, then one that counts the rest), the full list in a log group, the summary.
    package func githubLines(paths: ReportPaths) -> [String] {
        let all = findings
        let warnings = all.filter(\.warning), notices = all.filter { !$0.warning }
        func command(_ line: Line, level: String) -> String {
            var properties: [String] = []
            if let place = line.place {
                properties += ["file=" + GitHubAnnotations.escapeProperty(paths.relative(place.file)), "line=\(place.line)", "col=\(place.column)"]
            }
            properties.append("title=diff-" + (line.kind == .renamed ? "renamed" : line.kind.rawValue))
            return "::\(level) \(properties.joined(separator: ","))::" + GitHubAnnotations.escapeData(TerminalSafe.escaped(line.message))
        }
        var lines = warnings.prefix(GitHubAnnotations.limit).map { command($0, level: "warning") }
        let shownNotices = notices.count <= GitHubAnnotations.limit ? notices.count : GitHubAnnotations.limit - 1
        lines += notices.prefix(shownNotices).map { command($0, level: "notice") }
        let hidden = all.count - min(warnings.count, GitHubAnnotations.limit) - shownNotices
        if hidden > 0 {
            lines.append("::notice title=hubgeo diff::" + GitHubAnnotations.escapeData(
                "\(counted(hidden, "more difference")) not shown as annotations (GitHub shows \(GitHubAnnotations.limit) "
                    + "of each kind per step): all are listed in this step's log under \"All differences\", or run hubgeo diff --format text"))
            lines.append("::group::All differences (\(all.count))")
            lines += textLines(paths: paths).dropLast().map(GitHubAnnotations.escapeLog)
            lines.append("::endgroup::")
        }
        lines.append(GitHubAnnotations.escapeLog(diff.summary))
        return lines
    }

    /// The diff as JSON (sorted keys): the two sources, whether they are equal, every finding and
    /// the moves over `--warn-moved`.
    package func json() throws -> Data {
        struct Output: Encodable {
            var old: String
            var new: String
            var equal: Bool
            var added: [TreeDiff.Side]
            var removed: [TreeDiff.Side]
            var renamed: [TreeDiff.Rename]
            var moved: [TreeDiff.Move]
            var changed: [TreeDiff.Change]
            var unchanged: Int
            var warnMovedKilometers: Double?
            var movedOverLimit: [OrganizationIdentity]
        }
        let output = Output(old: old.source, new: new.source, equal: diff.isEqual, added: diff.added, removed: diff.removed,
                            renamed: diff.renamed, moved: diff.moved, changed: diff.changed, unchanged: diff.unchanged,
                            warnMovedKilometers: warnMovedKilometers,
                            movedOverLimit: diff.moved.filter(isWarning).map(\.identity))
        return Data(try PrettyJSON.string(output).utf8)
    }
}
