#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import GRDB
import HubGeoModel


/// What a path given as the database holds, found before anything opens it for writing, and
/// without writing to it: hubgeo writes only into a database it recognises as its own.
///
/// hubgeo stamps every database it creates with ``applicationID`` (`PRAGMA application_id`, bytes
/// 68-71 of the SQLite header), so its own files are known from their first 100 bytes. A database
/// made before the stamp existed (application id 0) is recognised by its migration record and its
/// `organization` table, and gets the stamp at its next import. Anything else is refused with
/// the reason, and never written to, rebuilt or removed: a directory, a device, a FIFO, a file that
/// is not SQLite, a SQLite database of another application.
package enum DatabaseFile {
    /// `PRAGMA application_id` of a hubgeo database: "HuGe" in ASCII.
    static let applicationID: Int32 = 0x4875_4765

    /// The database's `-wal` when it holds anything (a write-ahead log with commits the database
    /// file may lack); nil when it is missing or empty.
    static func writeAheadLogHoldingData(of path: String) -> String? {
        let log = SQLiteCompanions.sqliteName(of: path) + "-wal"
        var status = hubgeo_file_status()
        guard hubgeo_stat(log, &status) == 0, status.size > 0 else { return nil }
        return log
    }

    /// Why the database at `path` cannot be read safely when SQLite cannot use its `-shm` (`error`)
    /// while `log` holds changes, and what to do.
    static func unsafeToReadWithout(log: String, path: String, error: String) -> String {
        let index = SQLiteCompanions.sqliteName(of: path) + "-shm"
        return "its write-ahead log \(log) holds changes, and SQLite cannot open \(index) beside it "
            + "(\(whySharedMemoryIsUnusable(index))): \(error). Read without it, the database would answer with data older than "
            + "what was committed; checkpoint it where it may be written (any hubgeo import there, or "
            + "sqlite3 \(path) 'PRAGMA wal_checkpoint(TRUNCATE)'), or give this user write access"
    }

    /// Why SQLite cannot use the shared-memory file `index`, in words.
    static func whySharedMemoryIsUnusable(_ index: String) -> String {
        let folder = index.lastIndex(of: "/").map { String(index[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        var volume = hubgeo_volume_status()
        if hubgeo_statvfs(folder, &volume) == 0, volume.read_only { return "read-only file system" }
        if DatabaseSchema.spaceIsExhausted(beside: index) { return "disk full" }
        if access(index, F_OK) == 0 {
            let descriptor = open(index, O_RDWR | O_CLOEXEC)
            guard descriptor < 0 else {
                close(descriptor)
                return "it cannot be mapped"
            }
            let reason = String(cString: strerror(errno))
            var status = hubgeo_file_status()
            return hubgeo_stat(index, &status) == 0 && status.uid != getuid() ? "\(reason); it belongs to another user" : reason
        }
        return access(folder, W_OK) != 0 ? "read-only folder" : "it cannot be created"
    }

    /// What the path holds.
    enum Kind: Equatable {
        /// Nothing: a new database may be created there.
        case missing
        /// An empty file (0 bytes): nothing to lose, so a new database may be built in it.
        case empty
        /// A hubgeo database, stamped with ``applicationID``.
        case hubgeo
        /// A SQLite database with no application id: an older hubgeo's, a SQLite file with no
        /// tables, or another program's. ``inspectContents(_:path:)`` tells which.
        case unstamped
    }

    /// What the database of an unstamped file holds.
    enum Contents: Equatable {
        /// No tables at all: nothing to lose.
        case noTables
        /// hubgeo's tables and migration record (made before databases were stamped).
        case hubgeo
    }

    /// Looks at `path` (following a symbolic link, as opening does) and its SQLite header.
    /// Throws ``StoreError/unusablePath(path:reason:)`` for anything hubgeo must not open as its database.
    static func kind(of path: String) throws -> Kind {
        var status = hubgeo_file_status()
        guard hubgeo_stat(path, &status) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError.unusablePath(path: path, reason: String(cString: strerror(errno)))
        }
        switch status.mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw StoreError.unusablePath(path: path, reason: "it is a directory; --db names the database file, such as \(trimmedSlashes(path))/hubgeo.sqlite")
        case S_IFCHR: throw StoreError.unusablePath(path: path, reason: "it is a character device, not a database file")
        case S_IFBLK: throw StoreError.unusablePath(path: path, reason: "it is a block device, not a database file")
        case S_IFIFO: throw StoreError.unusablePath(path: path, reason: "it is a FIFO (named pipe), not a database file")
        case S_IFSOCK: throw StoreError.unusablePath(path: path, reason: "it is a socket, not a database file")
        default: throw StoreError.unusablePath(path: path, reason: "it is not a regular file")
        }
        guard status.size > 0 else { return .empty }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        var filled = 0
        while filled < 100 {
            let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, 100 - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        guard filled == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw StoreError.notHubgeoDatabase(path: path, reason: "it is not a SQLite database")
        }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        switch Int32(bitPattern: id) {
        case applicationID: return .hubgeo
        case 0: return .unstamped
        default:
            let hex = String(id, radix: 16)
            throw StoreError.notHubgeoDatabase(
                path: path, reason: "it is the SQLite database of another application (application id 0x\(String(repeating: "0", count: 8 - hex.count))\(hex))")
        }
    }

    /// What an unstamped database holds, read through `db` (a read-only connection).
    /// Throws ``StoreError/notHubgeoDatabase(path:reason:)`` when it holds tables that are not hubgeo's.
    static func inspectContents(_ db: Database, path: String) throws -> Contents {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """)
        guard !tables.isEmpty else { return .noTables }
        if tables.contains("grdb_migrations"), tables.contains("organization"),
           try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM grdb_migrations WHERE identifier = 'v1 organizations'") ?? false,
           try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM pragma_table_info('organization') WHERE name = 'stable_id'") ?? false {
            return .hubgeo
        }
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
        throw StoreError.notHubgeoDatabase(path: path, reason: "it holds tables that are not hubgeo's (\(shown))")
    }

    /// Opens nothing for writing: throws unless `path` is missing, empty or a hubgeo database
    /// (an unstamped one is opened read-only to look inside). Returns what it found.
    @discardableResult
    static func requireOwnOrAbsent(_ path: String) throws -> Kind {
        let kind = try kind(of: path)
        guard kind == .unstamped else { return kind }
        let writer = try OrganizationStore.openReadOnly(path: path, pool: false)
        defer { try? writer.close() }
        let contents = try writer.read { db in try inspectContents(db, path: path) }
        return contents == .noTables ? .empty : .hubgeo
    }

    private static func trimmedSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
