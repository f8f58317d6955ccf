import Foundation
import HubGeoDatabase
import HubGeoModel
import HubGeoReader

/// The first use of a database: a command that finds no data in it (no file, no organization,
/// or a file left half-made) imports the data built into hubgeo first, offline, and says so.
public enum FirstUse {
    /// Opens the database at `path` with `access`; when it holds no organization yet, first
    /// imports the data built into hubgeo and returns that import's report too. A database with
    /// organizations is opened once and, read-only, never changed: the built-in import is the one
    /// write a query may make.
    public static func open(path: String, access: OrganizationStore.Access) throws
        -> (store: OrganizationStore, builtInImport: Importer.Report?) {
        if FileManager.default.fileExists(atPath: path) {
            do {
                let store = try OrganizationStore(path: path, access: access)
                if try !store.isEmpty() { return (store, nil) }
            } catch StoreError.halfMade {
                // Rebuilt by the import below, which says so.
            }
        }
        let report = try Importer(reader: DocumentReader(remoteFetch: nil))
            .run(root: .embedded(EmbeddedData.rootName), database: path)
        return (try OrganizationStore(path: path, access: access), report)
    }
}
