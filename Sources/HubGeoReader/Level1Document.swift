import HubGeoJSON
import HubGeoModel

/// One parsed Level 1 file: the files it includes and the organizations it declares.
package struct Level1Document {
    struct Include {
        var reference: String
        var jsonPath: String
        var line: Int?
    }

    /// Where an organization entry sits in the file.
    struct EntryLocation: Hashable, Sendable {
        var jsonPath: String
        var line: Int?
    }

    var includes: [Include] = []
    var organizations: [Organization] = []
    /// The place of each entry of `organizations`, in the same order.
    var entryLocations: [EntryLocation] = []
    package var diagnostics: [Diagnostic] = []

    /// Reads a Level 1 document. A file whose overall shape is wrong throws;
    /// an unusable organization entry is skipped with a diagnostic of severity `skipSeverity`
    /// (a warning for an import, an error for `validate`).
    package init(json: JSONValue, file: String, skipSeverity: Diagnostic.Severity = .warning) throws(LoadError) {
        let root = JSONCursor(json)
        guard case .object = json else {
            throw .invalidDocument(file: file, jsonPath: "", reason: "a Level 1 file must be a JSON object, found \(json.kindDescription)")
        }
        includes = try Self.readIncludes(root.member("level1Header"), file: file)
        for type in OrganizationType.allCases {
            guard let array = root.member(type.level1ArrayName) else { continue }
            guard case .array = array.value else {
                throw .invalidDocument(file: file, jsonPath: array.path, reason: "expected an array, found \(array.value.kindDescription)")
            }
            for entry in (try? array.elements()) ?? [] {
                let (organization, location) = Self.readEntry(entry, type: type, file: file, skipSeverity: skipSeverity,
                                                              diagnostics: &diagnostics)
                if let organization {
                    organizations.append(organization)
                    entryLocations.append(location)
                }
            }
        }
    }

    /// The includes of a `level1Header`.
    static func readIncludes(_ header: JSONCursor?, file: String) throws(LoadError) -> [Include] {
        var result: [Include] = []
        if let header, let includes = header.member("level1URLIncludes") {
            guard case .array(let values) = includes.value else {
                throw .invalidDocument(file: file, jsonPath: includes.path, reason: "expected an array of URLs, found \(includes.value.kindDescription)")
            }
            for (index, value) in values.enumerated() {
                let path = "\(includes.path)[\(index)]"
                // An empty string is the walker's to report (it names no NAME.level1.json file).
                guard case .string(let reference) = value else {
                    throw .invalidDocument(file: file, jsonPath: path, reason: "expected a URL string, found \(value.kindDescription)")
                }
                result.append(Include(reference: reference, jsonPath: path, line: includes.line))
            }
        }
        return result
    }

    /// One organization entry: the organization, or nil when it is unusable (with a diagnostic).
    static func readEntry(_ entry: JSONCursor, type: OrganizationType, file: String, skipSeverity: Diagnostic.Severity,
                          diagnostics: inout [Diagnostic]) -> (Organization?, EntryLocation) {
        let location = EntryLocation(jsonPath: entry.path, line: entry.firstMemberLine)
        do throws(JSONCursor.Problem) {
            let (record, warnings) = try OrganizationRecord.read(entry)
            diagnostics += warnings.map { $0.diagnostic(severity: skipSeverity, file: file) }
            return (record.organization(type: type, source: file), location)
        } catch {
            diagnostics.append(Diagnostic(severity: skipSeverity, rule: error.diagnosticRule, file: file, jsonPath: error.path,
                                          line: error.line ?? entry.firstMemberLine,
                                          message: "\(error.message); \(type.rawValue) at \(entry.path) skipped"))
            return (nil, location)
        }
    }
}

extension JSONCursor.Problem {
    /// The rule of the problem's kind (a wrong type when the id is unknown).
    package var diagnosticRule: DiagnosticRule { DiagnosticRule(rawValue: rule) ?? .wrongType }

    package func diagnostic(severity: Diagnostic.Severity, file: String) -> Diagnostic {
        Diagnostic(severity: severity, rule: diagnosticRule, file: file, jsonPath: path, line: line, message: message)
    }
}

extension JSONCursor {
    /// The line of an object's first member (array elements carry no line of their own).
    package var firstMemberLine: Int? {
        if case .object(let members) = value, let first = members.first { return first.line }
        return line
    }
}
