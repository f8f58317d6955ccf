import Foundation
import GRDB
import HubGeoModel

/// A problem with the file given as the hubgeo database: it cannot be opened, is not hubgeo's,
/// or was left half-made. A failed SQLite call is GRDB's `DatabaseError`, which keeps its result
/// code and SQL (``DatabaseFailure`` is what users are told of it); a lookup that finds no
/// organization, or several, is an ``OrganizationLookupError``.
public enum StoreError: LocalizedError, Equatable, Sendable {
    /// SpatiaLite (`mod_spatialite`) cannot be loaded, for `reason`.
    case spatialiteUnavailable(reason: String)
    /// The database at `path` cannot be opened, for `reason`.
    case cannotOpen(path: String, reason: String)
    /// A path that cannot hold a database at all: a directory, a device, a FIFO.
    case unusablePath(path: String, reason: String)
    /// A file that is not a hubgeo database (not SQLite, or another application's): hubgeo
    /// neither reads nor writes it.
    case notHubgeoDatabase(path: String, reason: String)
    /// A database whose creation stopped half-way (an older hubgeo on a full disk): tables without
    /// the geometry column or the spatial metadata.
    case halfMade(path: String, reason: String)
    /// A hubgeo database holding data that is not what hubgeo wrote (a row of the wrong type or
    /// out of range, a cluster index that does not check): what is wrong, and where.
    case damaged(path: String, reason: String)
    /// A database a newer hubgeo has migrated: the migrations this hubgeo does not know. It is
    /// never written (its tables may mean something this hubgeo does not know); queries still read it.
    case newerDatabase(path: String, migrations: [String])

    /// The error in words, naming the file.
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
        case .damaged(let path, let reason):
            "\(path): the database is damaged: \(reason). Run `hubgeo import` (with the data it was made from) to rewrite it"
        case .newerDatabase(let path, let migrations):
            "\(path): made by a newer hubgeo (it has the migration\(migrations.count == 1 ? "" : "s") "
                + migrations.map { "\"\($0)\"" }.joined(separator: ", ")
                + " that hubgeo \(HubGeoVersion.current) does not know); this hubgeo does not write to it, and reads only what it knows. "
                + "Use the newer hubgeo, or another --db"
        }
    }
}

/// A failed SQLite call as hubgeo tells it: SQLite's result codes and message, never the SQL. The
/// commands and the server learn of a failure through this, so that GRDB stays behind the
/// database target (they do not import it to recognise its error).
public struct DatabaseFailure: Error, Sendable, Equatable {
    /// SQLite's primary result code (`SQLITE_FULL` is 13).
    public var resultCode: Int32
    /// SQLite's extended result code.
    public var extendedResultCode: Int32
    /// SQLite's message, if it gave one.
    public var message: String?

    /// The failure `error` is, when it is a failed SQLite call; nil for any other error.
    public init?(_ error: any Error) {
        guard let error = error as? DatabaseError else { return nil }
        resultCode = error.resultCode.rawValue
        extendedResultCode = error.extendedResultCode.rawValue
        message = error.message
    }

    /// What users are told: the problem and the result code, never the SQL.
    public var userMessage: String {
        let text = message ?? "SQLite error \(resultCode)"
        return resultCode == ResultCode.SQLITE_FULL.rawValue
            ? "disk full (SQLITE_FULL): \(text)"
            : "database error: \(text) (SQLite result code \(extendedResultCode))"
    }
}

extension DatabaseError {
    /// What users are told of a failed SQLite call (``DatabaseFailure/userMessage``).
    public var userMessage: String { DatabaseFailure(self)!.userMessage }
}
