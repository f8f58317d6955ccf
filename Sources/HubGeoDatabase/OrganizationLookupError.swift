import Foundation

/// Why ``OrganizationReading/organization(named:)`` found not exactly one organization: an answer
/// about the data (a user's typo, a name too short), where ``StoreError`` is a failure of the
/// database.
public enum OrganizationLookupError: LocalizedError, Equatable, Sendable {
    /// No organization has the name.
    case noMatch(String)
    /// The name matches several organizations, the `candidates`.
    case ambiguous(String, candidates: [String])

    /// The error in words.
    public var errorDescription: String? {
        switch self {
        case .noMatch(let name):
            "no organization matches \"\(name)\""
        case .ambiguous(let name, let candidates):
            "\"\(name)\" matches \(candidates.count) organizations: \(candidates.prefix(10).joined(separator: "; "))\(candidates.count > 10 ? "; ..." : "")"
        }
    }
}
