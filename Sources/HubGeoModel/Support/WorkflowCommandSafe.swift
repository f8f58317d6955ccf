/// Text for a GitHub Actions log, where the runner acts on workflow commands in whatever a step
/// prints, stdout and stderr, line by line (actions/runner `ActionCommand`): a line that starts
/// with `::` once its leading white space is trimmed (`TryParseV2`), and `##[` anywhere in a line
/// (the legacy `TryParse`, `IndexOf("##[")`). Data printed as it is could so mask words
/// (`##[add-mask]Town`), silence every later annotation (`##[stop-commands]x`) or forge one (a
/// file named `::error title=spoofed::x.level1.json`).
///
/// The escape is GitHub's own for data in commands, percent-encoding: a `#` of `##[` is written
/// `%23`, and the `:` of a line's leading `::` `%3A`, so `##[add-mask]x` reads `%23%23[add-mask]x`
/// and nothing else changes. A character that a comparison may ignore (a format character such as
/// U+00AD or U+200B, a combining mark) does not hide either form: `#`U+200B`#[` is escaped too.
/// Applied after ``TerminalSafe`` (which writes line breaks inside data as `\u{D}`, never raw).
package enum WorkflowCommandSafe {
    /// The kinds of text hubgeo writes to standard output as it is (a query's JSON, an export, the
    /// map page), each escaped in its own syntax so that the text still means the same.
    package enum Format: Sendable {
        /// JSON, or a page whose data is JSON in script elements: `#` written `\u0023` (a `#` only
        /// occurs inside a string there, and a line cannot start with `::` outside one).
        case json
        /// XML (KML): `#` written `&#35;`, a line's leading `:` `&#58;`.
        case xml
    }

    /// `text`, whole lines of `format`, with nothing the runner reads as a command in any line.
    package static func escaped(_ text: String, as format: Format) -> String {
        switch format {
        case .json:
            return escapedMarkers(json: text)
        case .xml:
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ":") }) else { return text }
            // The runner ends a line at \n, \r\n or a lone \r.
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.split(separator: "\r", omittingEmptySubsequences: false)
                    .map { logLine(String($0), marker: "&#35;", colon: "&#58;") }.joined(separator: "\r")
            }.joined(separator: "\n")
        }
    }

    /// `line`, one line of the log, with nothing the runner reads as a command: the `##[` of
    /// ``escapedMarkers(_:)`` and a leading `::` (after white space) written `%3A%3A` (or with
    /// `marker` and `colon`, the same characters in another syntax).
    package static func logLine(_ line: String, marker: String = "%23", colon: String = "%3A") -> String {
        var scalars = Array(escapingMarkers(line, with: marker).unicodeScalars)
        var index = scalars.startIndex
        while index < scalars.count, scalars[index].properties.isWhitespace || isTransparent(scalars[index]) { index += 1 }
        if index < scalars.count, scalars[index] == ":", let next = nextVisible(in: scalars, after: index), scalars[next] == ":" {
            scalars.replaceSubrange(next...next, with: colon.unicodeScalars)
            scalars.replaceSubrange(index...index, with: colon.unicodeScalars)
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// `text` with each `##[` written `%23%23[`: for the data in a workflow command hubgeo makes
    /// (its message, a file name), where a leading `::` is harmless.
    package static func escapedMarkers(_ text: String) -> String {
        escapingMarkers(text, with: "%23")
    }

    /// JSON text (printed as it is in GitHub Actions) with each `##[` written `#\u0023[`: a `#`
    /// only occurs inside a JSON string, where `\u0023` is the same character.
    package static func escapedMarkers(json text: String) -> String {
        escapingMarkers(text, with: "\\u0023")
    }

    /// `text` with both `#` of each `##[` replaced by `replacement`.
    private static func escapingMarkers(_ text: String, with replacement: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "#")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var marked = Set<Int>()
        for index in scalars.indices where scalars[index] == "#" {
            guard let second = nextVisible(in: scalars, after: index), scalars[second] == "#",
                  let bracket = nextVisible(in: scalars, after: second), scalars[bracket] == "[" else { continue }
            marked.insert(index)
            marked.insert(second)
        }
        guard !marked.isEmpty else { return text }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if marked.contains(index) { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }

    /// The index of the next scalar after `index` that is not ``isTransparent(_:)``.
    private static func nextVisible(in scalars: [Unicode.Scalar], after index: Int) -> Int? {
        var next = index + 1
        while next < scalars.count, isTransparent(scalars[next]) { next += 1 }
        return next < scalars.count ? next : nil
    }

    /// Characters a culture-aware comparison of .NET (ICU) may skip: controls, format characters,
    /// combining marks and the other default-ignorable code points.
    private static func isTransparent(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}
