import Foundation
import GRDB

/// The SpatiaLite database of organizations: a POINT geometry (SRID 4326) with an R*Tree
/// spatial index per organization, WAL mode so that readers never wait for an import.
public final class OrganizationStore: Sendable {
    /// The database file.
    public let path: String
    let pool: DatabasePool

    /// How a store opens its database.
    public enum Access: Sendable {
        /// Creates the database when needed, loads SpatiaLite and brings the schema up to date:
        /// for `import`, `localize` and anything else that writes.
        case readWrite
        /// Opens an existing database read-only and never changes it: no SpatiaLite, no schema
        /// set-up. A database in a read-only place (permissions, read-only media) is opened as
        /// immutable when SQLite cannot create its shared-memory file there.
        case readOnly
    }

    /// True when the store was opened with ``Access/readOnly``.
    public let isReadOnly: Bool

    /// Opens the database at `path`. With `.readWrite` (the default) it is created when needed,
    /// with SpatiaLite loaded into every connection and the schema (the organizations' and the geocode
    /// cache's) brought up to date; with
    /// `.readOnly` it must exist and is only read.
    public init(path: String, access: Access = .readWrite) throws {
        self.path = path
        isReadOnly = access == .readOnly
        if access == .readOnly {
            pool = try Self.openReadOnly(path: path)
            return
        }
        try Self.createDirectory(containing: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try SpatiaLiteExtension.load(into: db)
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            GeodesicFunction.register(in: db)
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: Self.describe(error))
        }
        do {
            try pool.writeWithoutTransaction { db in
                try DatabaseSchema.initializeSpatialMetadata(db)
            }
            try DatabaseSchema.migrator.migrate(pool)
            try GeocodeCache.migrate(pool)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    /// Closes the database and deletes its files (with its `-wal` and `-shm`): for a first
    /// import that failed, so that it leaves nothing behind. The store is unusable afterwards.
    public func removeFiles() {
        try? pool.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// True when no organization has been imported yet.
    public func isEmpty() throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM organization)") ?? true }
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return error.localizedDescription
    }
}
