import Foundation
import HubGeoReader

/// The first use of a database: a query or a write that finds no data imports the data built
/// into hubgeo first (offline), and says so.
extension OrganizationStore {
    /// Opens the database at `path` for reading and writing; when there is none (or it holds no
    /// organization yet, or was left half-made), first imports the data built into hubgeo (offline) and returns
    /// that import's report too.
    public static func openImportingBuiltInData(path: String) throws -> (store: OrganizationStore, firstImport: Importer.Report?) {
        if FileManager.default.fileExists(atPath: path) {
            do {
                let store = try OrganizationStore(path: path)
                guard try store.isEmpty() else { return (store, nil) }
            } catch StoreError.halfMade {
                // Rebuilt by the import below, which says so.
            }
        }
        let report = try Importer(reader: DocumentReader(remoteFetch: nil))
            .run(root: .embedded(EmbeddedData.rootName), database: path)
        return (try OrganizationStore(path: path), report)
    }

    /// Opens the database at `path` for queries: an existing database with organizations is
    /// opened read-only and never changed; a missing, empty or half-made one first gets the data
    /// built into hubgeo (the one write a query may make), whose report this returns too.
    /// `access`: ``Access/readOnly`` (one connection) or ``Access/readOnlyPool`` (concurrent readers).
    public static func openForQueries(path: String, access: Access = .readOnly) throws -> (store: OrganizationStore, firstImport: Importer.Report?) {
        if let store = try openReadOnlyIfPopulated(path: path, access: access) { return (store, nil) }
        return try openImportingBuiltInData(path: path)
    }
}
