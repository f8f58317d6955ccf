import Foundation
import HubGeoModel

/// A problem that stops an import as a whole: the data set would be incomplete otherwise.
/// Nothing is written to the database when one occurs.
public enum LoadError: LocalizedError, Equatable, Sendable {
    /// The file at `file` cannot be read, for `reason`.
    case unreadable(file: String, reason: String)
    /// The file at `file` is not valid JSON: `reason` at `line` and `column`.
    case malformedJSON(file: String, line: Int, column: Int, reason: String)
    /// The document at `file` is not what its level allows at `jsonPath`: `reason`, a finding of `rule`.
    case invalidDocument(file: String, jsonPath: String, reason: String, rule: DiagnosticRule = .wrongType)
    /// The includes form a cycle: `chain`, from the root.
    case includeCycle(chain: [String])
    /// The file `include`, included from `includedFrom` at `jsonPath`, does not exist.
    case missingInclude(include: String, includedFrom: String, jsonPath: String)
    /// Following `include` would make the include chain that starts at `root` longer than `limit` documents.
    case includeTooDeep(root: String, limit: Int, include: String, includedFrom: String, jsonPath: String)
    /// The tree at `root` holds no club or museum.
    case noOrganizations(root: String)
    /// Every organization of the tree was skipped; `problems` says why (one line each).
    case noUsableOrganizations(root: String, problems: [String])

    /// The error in words, naming the file.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let file, let reason):
            "\(file): cannot read: \(reason)"
        case .malformedJSON(let file, let line, let column, let reason):
            "\(file):\(line):\(column): malformed JSON: \(reason)"
        case .invalidDocument(let file, let jsonPath, let reason, _):
            "\(file): \(jsonPath.isEmpty ? "" : jsonPath + ": ")\(reason)"
        case .includeCycle(let chain):
            "include cycle: \(chain.joined(separator: " -> "))"
        case .missingInclude(let include, let includedFrom, let jsonPath):
            "\(includedFrom): \(jsonPath): included file \(include) does not exist"
        case .includeTooDeep(let root, let limit, let include, let includedFrom, let jsonPath):
            "\(includedFrom): \(jsonPath): \(Self.tooDeepMessage(root: root, limit: limit, include: include))"
        case .noOrganizations(let root):
            "\(root): no clubs or museums found in the include tree"
        case .noUsableOrganizations(let root, let problems):
            "\(root): no usable club or museum in the include tree; every one was skipped:\n  "
                + problems.prefix(20).joined(separator: "\n  ") + (problems.count > 20 ? "\n  ... (\(problems.count - 20) more)" : "")
        }
    }

    private static func tooDeepMessage(root: String, limit: Int, include: String) -> String {
        "included file \(include) not read: the include chain from \(root) would be longer than \(limit) files"
    }

    /// The problem as an error diagnostic (file, JSON path and line where known).
    public var diagnostic: Diagnostic {
        switch self {
        case .unreadable(let file, let reason):
            Diagnostic(severity: .error, rule: .unreadableFile, file: file, jsonPath: "", message: "cannot read: \(reason)")
        case .malformedJSON(let file, let line, let column, let reason):
            Diagnostic(severity: .error, rule: .jsonSyntax, file: file, jsonPath: "", line: line, column: column, message: "malformed JSON (column \(column)): \(reason)")
        case .invalidDocument(let file, let jsonPath, let reason, let rule):
            Diagnostic(severity: .error, rule: rule, file: file, jsonPath: jsonPath, message: reason)
        case .includeCycle(let chain):
            Diagnostic(severity: .error, rule: .includeCycle, file: chain.dropLast().last ?? "", jsonPath: "", message: "include cycle: \(chain.joined(separator: " -> "))")
        case .missingInclude(let include, let includedFrom, let jsonPath):
            Diagnostic(severity: .error, rule: .includeMissing, file: includedFrom, jsonPath: jsonPath, message: "included file \(include) does not exist")
        case .includeTooDeep(let root, let limit, let include, let includedFrom, let jsonPath):
            Diagnostic(severity: .error, rule: .includeTooDeep, file: includedFrom, jsonPath: jsonPath,
                       message: Self.tooDeepMessage(root: root, limit: limit, include: include))
        case .noOrganizations(let root):
            Diagnostic(severity: .error, rule: .noOrganizations, file: root, jsonPath: "", message: "no clubs or museums found in the include tree")
        case .noUsableOrganizations(let root, let problems):
            Diagnostic(severity: .error, rule: .noOrganizations, file: root, jsonPath: "", message: "no usable club or museum in the include tree (\(counted(problems.count, "problem")))")
        }
    }
}

/// Which level of the Photo Club Hub data a file holds.
package enum DocumentKind: String, Sendable, Codable, CaseIterable {
    /// Shared lists: expertises and languages (`*.level0.json`).
    case level0
    /// Organizations and includes (`*.level1.json`).
    case level1
    /// One club and its members (`*.level2.json`).
    case level2

    /// The kind a file name says (`x.level1.json`), nil when it says none.
    package init?(fileName: String) {
        let lower = fileName.lowercased()
        guard let kind = Self.allCases.first(where: { lower.hasSuffix(".\($0.rawValue).json") }) else { return nil }
        self = kind
    }
}
