import Foundation

/// A problem that stops an import as a whole: the data set would be incomplete otherwise.
/// Nothing is written to the database when one occurs.
public enum LoadError: LocalizedError, Equatable, Sendable {
    case unreadable(file: String, reason: String)
    case malformedJSON(file: String, line: Int, column: Int, reason: String)
    case invalidDocument(file: String, jsonPath: String, reason: String)
    case includeCycle(chain: [String])
    case missingInclude(include: String, includedFrom: String, jsonPath: String)
    case noOrganizations(root: String)

    public var errorDescription: String? {
        switch self {
        case .unreadable(let file, let reason):
            "\(file): cannot read: \(reason)"
        case .malformedJSON(let file, let line, let column, let reason):
            "\(file):\(line):\(column): malformed JSON: \(reason)"
        case .invalidDocument(let file, let jsonPath, let reason):
            "\(file): \(jsonPath.isEmpty ? "" : jsonPath + ": ")\(reason)"
        case .includeCycle(let chain):
            "include cycle: \(chain.joined(separator: " -> "))"
        case .missingInclude(let include, let includedFrom, let jsonPath):
            "\(includedFrom): \(jsonPath): included file \(include) does not exist"
        case .noOrganizations(let root):
            "\(root): no clubs or museums found in the include tree"
        }
    }
}
