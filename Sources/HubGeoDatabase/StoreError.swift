import Foundation
import GRDB
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// A problem with the hubgeo database. Like GRDB's `DatabaseError`, a failed SQLite call keeps
/// its result code and the SQL that failed (``database(resultCode:message:sql:)``); the message
/// shown to users names the problem, never the SQL.
public enum StoreError: LocalizedError, Equatable, Sendable {
    case spatialiteUnavailable(reason: String)
    case cannotOpen(path: String, reason: String)
    /// A path that cannot hold a database at all: a directory, a device, a FIFO.
    case unusablePath(path: String, reason: String)
    /// A file that is not a hubgeo database (not SQLite, or another application's): hubgeo
    /// neither reads nor writes it.
    case notHubgeoDatabase(path: String, reason: String)
    /// A database whose creation stopped half-way (an older hubgeo on a full disk): tables without
    /// the geometry column or the spatial metadata.
    case halfMade(path: String, reason: String)
    /// A failed SQLite call: its extended result code, SQLite's message and the SQL, if any.
    case database(resultCode: Int32, message: String, sql: String?)

    /// SQLITE_FULL: the disk (or the file system's quota) is full.
    public static let diskFullCode: Int32 = 13

    public var errorDescription: String? {
        switch self {
        case .spatialiteUnavailable(let reason):
            "cannot load SpatiaLite (mod_spatialite): \(reason). Install libsqlite3-mod-spatialite."
        case .cannotOpen(let path, let reason):
            "\(path): cannot open database: \(reason)"
        case .unusablePath(let path, let reason):
            "\(path): cannot be used as the database: \(reason)"
        case .notHubgeoDatabase(let path, let reason):
            "\(path): not a hubgeo database: \(reason). hubgeo leaves it untouched; choose another file with --db or HUBGEO_DB"
        case .halfMade(let path, let reason):
            "\(path): the database was left half-made (\(reason))"
        case .database(let code, let message, _):
            code & 0xFF == Self.diskFullCode
                ? "disk full (SQLITE_FULL): \(message)"
                : "database error: \(message) (SQLite result code \(code))"
        }
    }

    /// The primary SQLite result code of a ``database(resultCode:message:sql:)`` error, else nil.
    public var sqliteResultCode: Int32? {
        if case .database(let code, _, _) = self { return code & 0xFF }
        return nil
    }

    /// The SQL that failed, when known.
    public var sql: String? {
        if case .database(_, _, let sql) = self { return sql }
        return nil
    }

    /// `error` as a store error: a GRDB `DatabaseError` keeps its code and SQL; a store error is
    /// returned as is; anything else is returned unchanged.
    static func wrapping(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        return StoreError.database(resultCode: error.extendedResultCode.rawValue,
                                   message: error.message ?? "SQLite error \(error.resultCode.rawValue)", sql: error.sql)
    }

    /// Runs `body`, turning a GRDB `DatabaseError` into ``database(resultCode:message:sql:)``.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw wrapping(error) }
    }
}
