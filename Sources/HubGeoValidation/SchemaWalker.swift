import Foundation
import HubGeoJSON
import HubGeoModel

/// Walks a parsed document along its `DocumentSchema` and reports what the importer would
/// not tell: unknown keys, duplicate keys, wrong types where the importer does not look,
/// blank or space-padded strings, control characters in any text, empty or non-http(s) URLs,
/// languages and expertises that Level 0 does not define.
struct SchemaWalker {
    var file: String
    var catalog: Level0Catalog?
    /// Whether the document is Level 0 itself (its language codes are definitions, not uses).
    var isLevel0 = false
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, catalog: Level0Catalog?, isLevel0: Bool = false) {
        self.file = file
        self.catalog = catalog
        self.isLevel0 = isLevel0
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ rule: DiagnosticRule, _ path: String, _ line: Int?, _ message: String) {
        diagnostics.append(Diagnostic(severity: severity, rule: rule, file: file, jsonPath: path, line: line, message: message))
    }

    mutating func walk(_ value: JSONValue, schema: DocumentSchema, path: String = "", line: Int? = nil) {
        if case .null = value { return }  // the importer reads null as absent
        switch (schema, value) {
        case (.object(let known), .object(let members)):
            var firstLine: [String: Int] = [:]
            for member in members {
                let memberPath = JSONPath.member(path, member.key)
                if let earlier = firstLine[member.key] {
                    report(.warning, .duplicateKey, memberPath, member.line, "duplicate key \"\(member.key)\" (first on line \(earlier)); the last one counts")
                } else {
                    firstLine[member.key] = member.line
                }
                // "$schema" names the file's JSON Schema for an editor; the app ignores it, as any unknown key.
                if path.isEmpty && member.key == "$schema" { continue }
                guard let child = known[member.key] else {
                    report(.warning, .unknownKey, memberPath, member.line, "unknown key \"\(Self.abbreviated(member.key))\"\(Self.suggestion(for: member.key, in: known)); it is ignored")
                    continue
                }
                walk(member.value, schema: child, path: memberPath, line: member.line)
            }
        case (.array(let element), .array(let values)):
            for (index, value) in values.enumerated() {
                var elementLine = line
                if case .object(let members) = value, let first = members.first { elementLine = first.line }
                walk(value, schema: element, path: JSONPath.element(path, index), line: elementLine)
            }
        case (.string(let text), .string(let string)):
            check(string, as: text, path: path, line: line)
        case (.number, .number), (.bool, .bool):
            break
        default:
            report(.error, .wrongType, path, line, "expected \(schema.kindDescription), found \(value.kindDescription)\(JSONCursor.quotedHint(value))")
        }
    }

    private mutating func check(_ string: String, as text: DocumentSchema.Text, path: String, line: Int?) {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed != string && !trimmed.isEmpty {
            report(.warning, .paddedString, path, line, "\"\(Self.abbreviated(string))\" has leading or trailing spaces")
        }
        checkControlCharacters(string, in: text, path: path, line: line)
        switch text {
        case .plain, .name, .include:
            break
        case .url:
            if trimmed.isEmpty {
                report(.warning, .emptyURL, path, line, "empty string where a URL is expected; leave the key out instead")
            } else if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                      url.host?.isEmpty == false {
                break
            } else {
                report(.warning, .notHTTPURL, path, line, "\"\(Self.abbreviated(string))\" is not an http(s) URL")
            }
        case .language:
            guard !isLevel0, let catalog, !trimmed.isEmpty else { return }
            if !catalog.languages.contains(trimmed.uppercased()) {
                report(.warning, .unknownLanguage, path, line, "language \"\(Self.abbreviated(string))\" is not in Level 0 (\(catalog.languages.sorted().joined(separator: ", ")))")
            }
        case .expertise:
            guard let catalog, !catalog.expertises.contains(string) else { return }
            let hint = Levenshtein.nearest(to: trimmed, in: catalog.expertises).map { "; did you mean \"\($0)\"?" }
                ?? Levenshtein.nearest(to: trimmed, in: catalog.expertises, maxDistance: .max).map { "; the nearest known id is \"\($0)\"" } ?? ""
            report(.warning, .unknownExpertise, path, line, "expertise \"\(Self.abbreviated(string))\" is not in Level 0\(hint)")
        }
    }

    /// Control characters (C0, DEL, C1) act on a terminal that shows them raw (the app and other
    /// tools may); bidirectional controls reorder or hide the text around them. Names are the
    /// importer's (a control character there is an error) but for the bidirectional ones.
    private mutating func checkControlCharacters(_ string: String, in text: DocumentSchema.Text, path: String, line: Int?) {
        if text != .name {
            let controls = TerminalSafe.escapedCharacters(in: string, where: TerminalSafe.isControl)
            if !controls.isEmpty {
                report(.warning, .controlCharacter, path, line, controls.count == 1
                    ? "holds the control character \(controls[0]), which takes effect on a terminal that shows it raw"
                    : "holds the control characters \(controls.joined(separator: ", ")), which take effect on a terminal that shows them raw")
            }
        }
        let bidirectional = TerminalSafe.escapedCharacters(in: string, where: TerminalSafe.isBidirectionalControl)
        if !bidirectional.isEmpty {
            report(.warning, .bidirectionalControl, path, line, bidirectional.count == 1
                ? "holds the bidirectional control character \(bidirectional[0]), which reorders or hides the text around it"
                : "holds the bidirectional control characters \(bidirectional.joined(separator: ", ")), which reorder or hide the text around them")
        }
    }

    /// The string, cut to 80 characters for messages.
    static func abbreviated(_ string: String) -> String {
        string.count <= 80 ? string : String(string.prefix(60)) + "... (\(string.count) characters)"
    }

    /// " (did you mean \"optional.birthday\"?)" for a key that belongs in `optional`, or a near spelling.
    static func suggestion(for key: String, in known: [String: DocumentSchema]) -> String {
        if case .object(let optional)? = known["optional"], optional[key] != nil {
            return " (it belongs inside \"optional\")"
        }
        if let near = Levenshtein.nearest(to: key, in: known.keys) {
            return " (did you mean \"\(near)\"?)"
        }
        return ""
    }
}
