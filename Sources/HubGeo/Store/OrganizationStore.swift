import Foundation
import GRDB

/// The SpatiaLite database of organizations: a POINT geometry (SRID 4326) with an R*Tree
/// spatial index per organization, WAL mode so that readers never wait for an import.
public final class OrganizationStore: Sendable {
    /// The database file.
    public let path: String
    let pool: DatabasePool

    /// Opens (creating when needed) the database at `path`, with SpatiaLite loaded into every
    /// connection and the schema (the organizations' and the geocode cache's) brought up to date.
    public init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try SpatiaLiteExtension.load(into: db)
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
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
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0 } == 0
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return error.localizedDescription
    }
}
