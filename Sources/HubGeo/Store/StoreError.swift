import Foundation

/// A problem with the hubgeo database.
public enum StoreError: LocalizedError, Equatable, Sendable {
    case spatialiteUnavailable(reason: String)
    case cannotOpen(path: String, reason: String)
    case notInitialized(path: String)
    case noMatch(String)
    case ambiguous(String, candidates: [String])

    public var errorDescription: String? {
        switch self {
        case .spatialiteUnavailable(let reason):
            "cannot load SpatiaLite (mod_spatialite): \(reason). Install libsqlite3-mod-spatialite."
        case .cannotOpen(let path, let reason):
            "\(path): cannot open database: \(reason)"
        case .notInitialized(let path):
            "\(path): not a hubgeo database"
        case .noMatch(let name):
            "no organization matches \"\(name)\""
        case .ambiguous(let name, let candidates):
            "\"\(name)\" matches \(candidates.count) organizations: \(candidates.prefix(10).joined(separator: "; "))\(candidates.count > 10 ? "; ..." : "")"
        }
    }
}
