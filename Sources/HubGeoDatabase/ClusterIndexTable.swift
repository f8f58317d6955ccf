import GRDB
import GRDBSQLite
import HubGeoClusters
import HubGeoModel

/// Table `cluster_index`: the map's clusters for every zoom (a ``ClusterIndex`` of the
/// organizations' row ids and coordinates), serialized as one blob in one row. An import that
/// adds, changes or removes organizations builds it again in its own transaction, so that every
/// snapshot of the database holds the index of exactly its organizations; `hubgeo serve` loads
/// it (about 80 ms for a million organizations) instead of building it (about 2 s).
///
/// Raw SQLite, not GRDB, for the blob: GRDB has no incremental blob I/O (`sqlite3_blob_open`,
/// `_read`, `_write`), and reading the blob as a column would copy its whole size (tens of MB at a
/// million organizations) into a `Data` before the index is made from it.
enum ClusterIndexTable {
    /// Creates the table (a migration of ``DatabaseSchema``).
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE cluster_index (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                import_run_id INTEGER NOT NULL,
                organizations INTEGER NOT NULL,
                format INTEGER NOT NULL,
                data BLOB NOT NULL
            )
            """)
    }

    /// What an import calls before it records itself as `importRun`: the stored index is
    /// built again when the organizations changed, when none of the current format is stored
    /// (a database made by an older hubgeo), or when the stored one does not load (damaged: a
    /// truncated blob was kept by every import that changed nothing, and `serve` refused it at
    /// every start). Returns what was wrong with the stored index, when that is why it was rebuilt.
    static func refresh(_ db: Database, importRun: Int64, organizationsChanged: Bool) throws -> String? {
        var damage: String?
        if !organizationsChanged, try storedImportRun(db) != nil {
            do {
                _ = try load(db)
                return nil
            } catch let error as DamagedData {
                damage = error.description
            }
        }
        let index = try build(db)
        try store(index, db, importRun: importRun)
        return damage
    }

    /// Builds the index of the organizations `db` holds, on every processor.
    static func build(_ db: Database) throws -> ClusterIndex {
        var organizations: [ClusterIndex.Organization] = []
        organizations.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, latitude, longitude FROM organization ORDER BY id")
        while let row = try rows.next() {
            let checked = CheckedRow(row, place: "organization row \(row[0] as Int64)")
            organizations.append(ClusterIndex.Organization(
                id: row[0], latitude: try checked.number(1, "latitude", in: -90...90),
                longitude: try checked.number(2, "longitude", in: -180...180)))
        }
        do {
            return try ClusterIndex(organizations)
        } catch {
            // The coordinates are checked above; the index's own limits (its size) remain.
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "cannot cluster the organizations: \(error)")
        }
    }

    /// Writes `index` as the stored one, piece by piece into a blob of its size (no copy of it
    /// is made in memory).
    static func store(_ index: ClusterIndex, _ db: Database, importRun: Int64) throws {
        let size = index.serializedByteCount
        try db.execute(sql: """
            INSERT OR REPLACE INTO cluster_index (id, import_run_id, organizations, format, data)
            VALUES (1, ?, ?, ?, zeroblob(?))
            """, arguments: [importRun, index.organizationCount, ClusterIndex.formatVersion, size])
        let blob = try Blob(db, writable: true)
        defer { blob.close() }
        var offset = 0
        try index.serialize { piece in
            guard piece.count > 0 else { return }
            try blob.check(sqlite3_blob_write(blob.handle, piece.baseAddress, Int32(piece.count), Int32(offset)))
            offset += piece.count
        }
    }

    /// Which import built the stored index, if one of the current format is stored; nil for a
    /// database without one (made by an older hubgeo and not imported into since).
    static func storedImportRun(_ db: Database) throws -> Int64? {
        guard try db.tableExists("cluster_index") else { return nil }
        return try Int64.fetchOne(db, sql: "SELECT import_run_id FROM cluster_index WHERE format = ?",
                                  arguments: [ClusterIndex.formatVersion])
    }

    /// Loads the stored index, read from the blob straight into the index's memory.
    static func load(_ db: Database) throws -> ClusterIndex {
        let blob: Blob
        do {
            blob = try Blob(db, writable: false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // The row is there (``storedImportRun(_:)``): its data is not a blob ("cannot open value of type null").
            throw DamagedData(description: "the stored cluster index (table cluster_index) cannot be read: \(error.message ?? "\(error)")")
        }
        defer { blob.close() }
        let size = Int(sqlite3_blob_bytes(blob.handle))
        do {
            return try ClusterIndex(serializedByteCount: size) { memory in
                var offset = 0
                while offset < size {
                    let count = min(size - offset, 1 << 24)
                    try blob.check(sqlite3_blob_read(blob.handle, memory.baseAddress! + offset, Int32(count), Int32(offset)))
                    offset += count
                }
            }
        } catch let error as ClusterIndexError {
            throw DamagedData(description: "the stored cluster index (table cluster_index) does not load: \(error)")
        }
    }

    /// The blob of row 1, open for incremental reading or writing.
    private final class Blob {
        let handle: OpaquePointer
        let connection: OpaquePointer

        init(_ db: Database, writable: Bool) throws {
            guard let connection = db.sqliteConnection else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed")
            }
            self.connection = connection
            var handle: OpaquePointer?
            let status = sqlite3_blob_open(connection, "main", "cluster_index", "data", 1, writable ? 1 : 0, &handle)
            guard status == SQLITE_OK, let handle else {
                let error = DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                          message: String(cString: sqlite3_errmsg(connection)))
                sqlite3_blob_close(handle)
                throw error
            }
            self.handle = handle
        }

        func check(_ status: Int32) throws {
            guard status == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                    message: String(cString: sqlite3_errmsg(connection)))
            }
        }

        func close() { sqlite3_blob_close(handle) }
    }
}
