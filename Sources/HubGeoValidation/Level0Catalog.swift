import Foundation
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// What a Level 0 file defines: the language codes and the expertise ids that Level 1 and
/// Level 2 files may use.
public struct Level0Catalog: Sendable, Equatable {
    /// ISO 639-1 codes, upper case ("EN", "NL"): codes compare without case.
    public var languages: Set<String>
    /// Expertise `idString`s, as written.
    public var expertises: Set<String>
    /// Where the catalog was read from.
    public var source: String

    /// A catalog of these languages and expertises, read from `source`.
    public init(languages: Set<String>, expertises: Set<String>, source: String) {
        self.languages = languages
        self.expertises = expertises
        self.source = source
    }

    /// Reads a Level 0 document; problems with its entries come back as diagnostics
    /// (an expertise without `idString` is an error: the app skips it).
    static func read(_ json: JSONValue, file: String) -> (catalog: Level0Catalog, diagnostics: [Diagnostic]) {
        var catalog = Level0Catalog(languages: [], expertises: [], source: file)
        var diagnostics: [Diagnostic] = []
        func report(_ severity: Diagnostic.Severity, _ rule: DiagnosticRule, _ cursor: JSONCursor, _ message: String) {
            diagnostics.append(Diagnostic(severity: severity, rule: rule, file: file, jsonPath: cursor.path, line: cursor.firstMemberLine, message: message))
        }
        let root = JSONCursor(json)
        guard case .object = json else {
            diagnostics.append(Diagnostic(severity: .error, rule: .wrongType, file: file, jsonPath: "",
                                          message: "a Level 0 file must be a JSON object, found \(json.kindDescription)"))
            return (catalog, diagnostics)
        }
        let languages = root.member("languages")
        let expertises = root.member("expertises")
        if languages == nil && expertises == nil {
            diagnostics.append(Diagnostic(severity: .warning, rule: .emptyLevel0, file: file, jsonPath: "",
                                          message: "the file defines no languages and no expertises"))
        }
        if let languages, let elements = try? languages.elements() {
            var firstSeen: [String: String] = [:]
            for element in elements {
                guard let code = try? element.requiredString("isoCode") else { continue }  // the schema walk reports it
                // Compared without case, as the app stores them (lower case; "EN" and "en" are one language).
                let upper = code.trimmingCharacters(in: .whitespaces).uppercased()
                if let first = firstSeen[upper] {
                    report(.warning, .duplicateLanguage, element, "language \(upper) is listed again (first at \(first))")
                } else {
                    firstSeen[upper] = element.path
                }
                catalog.languages.insert(upper)
            }
        }
        if let expertises, let elements = try? expertises.elements() {
            var firstSeen: [String: String] = [:]
            for element in elements {
                guard case .object = element.value else { continue }
                guard let id = element.member("idString") else {
                    report(.error, .expertiseWithoutId, element, "expertise has no idString; the app skips it")
                    continue
                }
                guard case .string(let text) = id.value, !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                if let first = firstSeen[text] {
                    report(.warning, .duplicateExpertise, id, "expertise \"\(text)\" is listed again (first at \(first))")
                } else {
                    firstSeen[text] = element.path
                }
                catalog.expertises.insert(text)
            }
        }
        return (catalog, diagnostics)
    }
}
