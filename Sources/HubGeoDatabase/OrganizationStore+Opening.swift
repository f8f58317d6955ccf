#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import GRDB

extension OrganizationReading where Self: ~Copyable {
    /// True when the database has the geocode cache (a database made by an older hubgeo gets it
    /// from the next `localize`; read-only queries find no cached places there).
    func hasGeocodeCache() throws -> Bool {
        try database.read { db in try db.tableExists("geocode_cache") }
    }
}

extension OrganizationStore {
    /// One read-only connection to an existing file, or a pool of them (`pool`). SQLite needs the
    /// `-shm` file of a WAL database even to read it; where it cannot create or open one (a
    /// read-only directory or medium) nobody can be writing the database either, so it is opened
    /// as immutable, but only when no `-wal` holds commits that the file alone lacks: otherwise
    /// the open fails, saying why.
    static func openReadOnly(path: String, pool: Bool) throws -> any DatabaseWriter {
        guard access(path, F_OK) == 0 else {
            throw StoreError.cannotOpen(path: path, reason: "no such file")
        }
        guard access(path, R_OK) == 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(EACCES)))
        }
        func open(_ name: String) throws -> any DatabaseWriter {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            configuration.prepareDatabase { db in
                GeodesicFunction.register(in: db)
                // 8 MiB of pages (SQLite's default is 2 MiB): the rows, remarks and index pages a
                // repeated query touches stay cached, and an export's memory stays well bounded.
                try db.execute(sql: "PRAGMA cache_size = -8192")
            }
            // A pool opens a writer connection besides its readers, even read-only.
            let writer: any DatabaseWriter = pool
                ? try DatabasePool(path: name, configuration: configuration)
                : try DatabaseQueue(path: name, configuration: configuration)
            // The first read is what needs the -shm file.
            _ = try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return writer
        }
        do {
            return try open(path)
        } catch let first as DatabaseError where first.resultCode == .SQLITE_READONLY || first.resultCode == .SQLITE_CANTOPEN
                    || !pool && first.resultCode == .SQLITE_IOERR && DatabaseSchema.spaceIsExhausted(beside: path) {
            // Only for a file SQLite may not write beside (no -shm): never when a writer is busy.
            // On a full disk SQLite cannot grow a -shm to its 32 KiB ("disk I/O error"), nor can
            // a writer grow the -wal: the file alone is the data. Not for a pool (a server), which
            // would go on reading the file immutable after space is freed and imports resume.
            // Immutable, SQLite reads the database file alone: a -wal that holds commits would be
            // ignored, and the old data answered as current.
            if let log = DatabaseFile.writeAheadLogHoldingData(of: path) {
                throw StoreError.cannotOpen(path: path, reason: DatabaseFile.unsafeToReadWithout(log: log, path: path, error: describe(first)))
            }
            do {
                return try open(immutableURI(path))
            } catch {
                throw Self.diskFull(first, path: path) ?? StoreError.cannotOpen(path: path, reason: describe(first))
            }
        } catch {
            throw Self.openError(error, path: path)
        }
    }

    /// `file:` URI of `path` with `immutable=1` (SQLite: the file cannot change while open).
    static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "%") {
                uri += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri + "?immutable=1"
    }

    /// Creates the directory that will hold the database file, with a plain message when it cannot.
    package static func createDirectory(containing path: String) throws {
        var directory = path
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        guard let slash = directory.lastIndex(of: "/") else { return }
        directory = String(directory[..<slash])
        guard !directory.isEmpty else { return }
        var missing: [String] = []
        var current = directory
        while !current.isEmpty, access(current, F_OK) != 0 {
            missing.append(current)
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
        }
        for folder in missing.reversed() where mkdir(folder, 0o777) != 0 && errno != EEXIST {
            throw StoreError.cannotOpen(path: path, reason: "cannot create directory \(folder): \(String(cString: strerror(errno)))")
        }
        var status = hubgeo_file_status()
        if hubgeo_stat(directory, &status) == 0, status.mode & S_IFMT != S_IFDIR {
            throw StoreError.cannotOpen(path: path, reason: "\(directory) is not a directory")
        }
    }
}
