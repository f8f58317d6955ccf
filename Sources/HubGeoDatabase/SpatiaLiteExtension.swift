import GRDB
import GRDBSQLite

/// Loads SpatiaLite into a SQLite connection, with extension loading switched off again
/// right after, so no SQL statement can load anything else. Raw SQLite, not GRDB: GRDB has no
/// API for loading an extension (`sqlite3_enable_load_extension`, `sqlite3_load_extension`).
enum SpatiaLiteExtension {
    static func load(into db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw StoreError.spatialiteUnavailable(reason: "no SQLite connection")
        }
        sqlite3_enable_load_extension(connection, 1)
        defer { sqlite3_enable_load_extension(connection, 0) }
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_load_extension(connection, "mod_spatialite", nil, &message)
        guard status == SQLITE_OK else {
            let reason = message.map { String(cString: $0) } ?? "SQLite error \(status)"
            sqlite3_free(message)
            throw StoreError.spatialiteUnavailable(reason: reason)
        }
    }
}
