import Foundation
import GRDB
import GRDBSQLite

/// The SpatiaLite database of organizations: a POINT geometry (SRID 4326) with an R*Tree
/// spatial index per organization, WAL mode so that readers never wait for an import.
public final class OrganizationStore: OrganizationReading, Sendable {
    /// The database file.
    public let path: String
    /// The connections, which only this store opens.
    public let database: StoreDatabase

    /// How a store opens its database.
    public struct Access: Sendable, Equatable {
        enum Mode: Sendable, Equatable {
            case readWrite, readOnly, readOnlyPool, importing, staging
        }

        let mode: Mode

        /// Creates the database when needed, loads SpatiaLite and brings the schema up to date:
        /// for `import`, `localize` and anything else that writes. A pool: one writer and
        /// concurrent readers (WAL mode).
        public static let readWrite = Access(mode: .readWrite)
        /// Opens an existing database read-only and never changes it: no SpatiaLite, no schema
        /// set-up. A database in a read-only place (permissions, read-only media) is opened as
        /// immutable when SQLite cannot create its shared-memory file there. One connection, whose
        /// reads take turns: for a command that reads and exits.
        public static let readOnly = Access(mode: .readOnly)
        /// As ``readOnly``, with a pool of connections that read at the same time: for a server.
        /// A pool opens a writer connection besides its readers, and SQLite reads the schema on each.
        public static let readOnlyPool = Access(mode: .readOnlyPool)
        /// As ``readWrite`` with one connection, for an import: unlike a pool, opening it never
        /// writes (a pool commits an empty transaction at open, to make the WAL file exist), so a
        /// failed import leaves the file byte for byte as it was.
        package static let importing = Access(mode: .importing)
        /// One connection to a new file that nobody else sees yet (a database being built beside
        /// its name): no journal and no fsync while it fills; ``finishStaging()`` turns on WAL mode.
        package static let staging = Access(mode: .staging)

        /// True for ``readOnly`` and ``readOnlyPool``.
        var isReadOnly: Bool { mode == .readOnly || mode == .readOnlyPool }
    }

    /// True when the store was opened with ``Access/readOnly`` or ``Access/readOnlyPool``.
    public let isReadOnly: Bool

    /// Opens the database at `path`: the one place where hubgeo opens a database file. With
    /// `.readWrite` (the default) it is created when needed, with SpatiaLite loaded into every
    /// connection and the schema (the organizations' and the geocode cache's) brought up to
    /// date; with `.readOnly` it must exist and is only read. A file that is not hubgeo's, or
    /// was made by a newer hubgeo, is refused, naming it.
    public init(path: String, access: Access = .readWrite) throws {
        self.path = path
        isReadOnly = access.isReadOnly
        switch access.mode {
        case .readOnly, .readOnlyPool:
            let kind = try DatabaseFile.kind(of: path)
            let writer = try Self.openReadOnly(path: path, pool: access.mode == .readOnlyPool)
            if kind == .unstamped {
                // Throws for another program's tables; a file with none reads as a database with no organizations.
                _ = try writer.read { db in try DatabaseFile.inspectContents(db, path: path) }
            }
            database = StoreDatabase(writer: writer, path: path)
        case .readWrite, .importing, .staging: database = StoreDatabase(writer: try Self.openWritable(path: path, mode: access.mode), path: path)
        }
    }

    /// The connections of a database opened for writing (``Access/readWrite``, ``Access/importing``
    /// or ``Access/staging``), its schema set up or brought up to date.
    private static func openWritable(path: String, mode: Access.Mode) throws -> any DatabaseWriter {
        try Self.createDirectory(containing: path)
        // Only a database of hubgeo's own is ever written to (a new one is staged, so it is ours).
        let kind = mode == .staging ? .missing : try DatabaseFile.requireOwnOrAbsent(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try SpatiaLiteExtension.load(into: db)
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            GeodesicFunction.register(in: db)
            if mode == .staging {
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
            }
        }
        let writer: any DatabaseWriter
        do {
            if mode == .readWrite && (kind == .hubgeo || kind == .unstamped) {
                // A pool writes at open (an empty transaction): a newer hubgeo's database is refused first.
                var peek = Configuration()
                peek.readonly = true
                let unknown = try DatabaseQueue(path: path, configuration: peek).read { try DatabaseSchema.unknownMigrations($0) }
                if !unknown.isEmpty { throw StoreError.newerDatabase(path: path, migrations: unknown) }
            }
            switch mode {
            case .importing:
                // A new file gets WAL mode (kept in its header); an existing one keeps its own.
                if kind == .missing || kind == .empty { configuration.journalMode = .wal }
                writer = try DatabaseQueue(path: path, configuration: configuration)
            case .staging:
                writer = try DatabaseQueue(path: path, configuration: configuration)
            default:
                writer = try DatabasePool(path: path, configuration: configuration)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.openError(error, path: path)
        }
        do {
            // Checked first without writing: opening a current database leaves its bytes alone.
            let state = try writer.read { db in try DatabaseSchema.state(db) }
            switch state {
            case .current:
                break
            case .halfMade(let reason):
                throw StoreError.halfMade(path: path, reason: reason)
            case .newer(let migrations):
                throw StoreError.newerDatabase(path: path, migrations: migrations)
            case .needsSetUp:
                try writer.writeWithoutTransaction { db in
                    // The stamp comes first, so that even a set-up cut short leaves a file hubgeo knows as its own.
                    try db.execute(sql: "PRAGMA application_id = \(DatabaseFile.applicationID)")
                    try DatabaseSchema.initializeSpatialMetadata(db)
                }
                try DatabaseSchema.migrate(writer)
                try writer.read { db in
                    if case .halfMade(let reason) = try DatabaseSchema.state(db) {
                        throw StoreError.halfMade(path: path, reason: reason)
                    }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw error
        } catch {
            throw Self.openError(error, path: path)
        }
        return writer
    }

    /// Ends the building of a ``Access/staging`` database: WAL mode from now on (kept in the
    /// file's header), then every connection closed. The store is unusable afterwards.
    package func finishStaging() throws {
        try database.writeWithoutTransaction { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "cannot switch the new database to WAL mode")
            }
        }
        try database.close()
    }

    /// Copies everything from the WAL into the database file (so that the file alone holds the
    /// data), then closes every connection. The store is unusable afterwards.
    public func checkpointAndClose() throws {
        try database.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)  // throws when it cannot complete
        }
        try database.close()
    }

    /// True when no organization has been imported yet (a file with none of hubgeo's tables
    /// holds none).
    public func isEmpty() throws -> Bool {
        try database.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT count(*) = 2 FROM sqlite_master WHERE type = 'table' AND name IN ('organization', 'organization_remark')") == true
            else { return true }
            return try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM organization)") ?? true
        }
    }

    /// `error` as SQLITE_FULL naming the folder of `path` when it is a full disk (``diskFull(_:path:)``),
    /// else `error` itself.
    package static func namingFullDisk(_ error: Error, path: String) -> any Error {
        diskFull(error, path: path) ?? error
    }

    /// A failure to open or set up: SQLITE_FULL, or an I/O error on a file system with no space
    /// left, says "disk full"; anything else "cannot open".
    static func openError(_ error: Error, path: String) -> any Error {
        diskFull(error, path: path) ?? StoreError.cannotOpen(path: path, reason: describe(error))
    }

    /// `error` as SQLITE_FULL naming the folder of `path` when it is SQLITE_FULL, or an I/O error
    /// (SQLite cannot grow `-shm` or `-wal`: "disk I/O error") while the file system holding
    /// `path` has no space left; nil for any other error.
    static func diskFull(_ error: Error, path: String) -> DatabaseError? {
        guard let error = error as? DatabaseError else { return nil }
        let exhausted = DatabaseSchema.spaceIsExhausted(beside: path)
        guard error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR && exhausted else { return nil }
        let said = "no space left on the file system of "
        guard exhausted, error.message?.hasPrefix(said) != true else { return error }
        var folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if folder.isEmpty { folder = "/" }
        return DatabaseError(resultCode: .SQLITE_FULL, message: "\(said)\(folder) (SQLite: \(describe(error)))",
                             sql: error.sql)
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return error.localizedDescription
    }
}

/// The store's connections (a pool, or one queue for an import), through which every access
/// goes: opaque outside hubgeo. A failed SQLite call throws GRDB's `DatabaseError`, with its result code and SQL;
/// data that is not what hubgeo wrote (`DamagedData`) throws ``StoreError/damaged(path:reason:)``,
/// which names the file. In a snapshot (``StoreSnapshot``) every
/// read goes to the snapshot's one connection and read transaction, and nothing writes.
public struct StoreDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The database file, for the message of damaged data.
    let path: String
    /// The snapshot's connection, in the store of a snapshot.
    let snapshot: SnapshotConnection?

    init(writer: any DatabaseWriter, path: String, snapshot: SnapshotConnection? = nil) {
        self.writer = writer
        self.path = path
        self.snapshot = snapshot
    }

    /// The same connections with every read going to `db`, the connection of a read transaction
    /// in progress: a snapshot's (``StoreSnapshot``), valid while that transaction's block runs.
    func lending(_ db: Database) -> StoreDatabase {
        StoreDatabase(writer: writer, path: path, snapshot: SnapshotConnection(db))
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try namingDamage {
            if let snapshot { return try body(snapshot.db) }
            return try writer.read(body)
        }
    }

    /// One read transaction, asynchronously: cancelling the task interrupts the statement that
    /// runs (`sqlite3_interrupt`), the next one throws, and the connection returns to the pool.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if let snapshot { return try body(snapshot.db) }
            return try await writer.read(body)
        } catch let damage as DamagedData {
            throw StoreError.damaged(path: path, reason: damage.description)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw newerDatabaseFailure() ?? error
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        precondition(snapshot == nil, "a snapshot only reads")
        return try namingDamage { try writer.write(body) }
    }

    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        precondition(snapshot == nil, "a snapshot only reads")
        return try namingDamage { try writer.writeWithoutTransaction(body) }
    }

    func close() throws {
        precondition(snapshot == nil, "a snapshot's connection belongs to its pool")
        try writer.close()
    }

    /// Runs `body`, turning ``DamagedData`` into the error that names the database.
    private func namingDamage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let damage as DamagedData {
            throw StoreError.damaged(path: path, reason: damage.description)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw newerDatabaseFailure() ?? error
        }
    }

    /// A statement SQLite could not run (`SQLITE_ERROR`: a table or column missing) in a database a
    /// newer hubgeo migrated, which queries still read: that migration's change, said as such, where
    /// SQLite's own message ("no such column") would read as a fault of this hubgeo. Nil for a
    /// database this hubgeo knows: the failure is told as it is.
    private func newerDatabaseFailure() -> StoreError? {
        let unknown: [String]?
        if let snapshot {
            unknown = try? DatabaseSchema.unknownMigrations(snapshot.db)
        } else {
            unknown = try? writer.read { try DatabaseSchema.unknownMigrations($0) }
        }
        guard let unknown, !unknown.isEmpty else { return nil }
        return .newerDatabase(path: path, migrations: unknown)
    }
}

/// The connection of a snapshot's read transaction, lent to the ``StoreSnapshot`` while the
/// snapshot's block runs, on the thread that runs it (which is why it may be marked Sendable:
/// the snapshot cannot be copied out of the block).
final class SnapshotConnection: @unchecked Sendable {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }
}
