import GRDB
import GRDBSQLite

/// One SQLite statement, prepared once on a connection and run many times (the import's
/// inserts): values are bound straight into SQLite, text with its byte length so that a NUL
/// character inside a value is kept, not taken for the end. Owns its handle and finalizes it in
/// `deinit`. Errors keep the result code and the SQL (GRDB's `DatabaseError`).
///
/// Raw SQLite, not GRDB's `Statement`: GRDB binds a `String` with length -1 (`sqlite3_bind_text`
/// reads it up to the first NUL), which would cut a value holding U+0000; there is no GRDB API to
/// bind text with its byte length.
final class PreparedStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String

    /// SQLite copies bound text and blobs at once (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        self.connection = connection
        self.sql = sql
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { bytes in
            // An empty buffer may have no address: bind a zero-length blob of text all the same.
            let start = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(handle, index, start, Int32(bytes.count), Self.transient)
        }
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int?) {
        bind(index, value.map(Int64.init))
    }

    func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int(handle, index, value ? 1 : 0)
    }

    func bind(_ index: Int32, blob: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), Self.transient)
    }

    /// Runs the statement with the values bound, then resets it for the next run.
    func execute() throws {
        let status = sqlite3_step(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        guard status == SQLITE_DONE || status == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }
}

/// SpatiaLite's binary form of a POINT (what `MakePoint(x, y, srid)` returns), built in Swift so
/// that a bulk load calls no SQL function per row: byte order, SRID, MBR, class, X, Y, end mark.
enum SpatiaLitePoint {
    static let byteCount = 60

    static func withBlob<T>(longitude: Double, latitude: Double, srid: Int32 = 4326,
                            _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { buffer in
            buffer[0] = 0x00                  // start
            buffer[1] = 0x01                  // little endian
            buffer.storeBytes(of: srid.littleEndian, toByteOffset: 2, as: Int32.self)
            for (offset, value) in [(6, longitude), (14, latitude), (22, longitude), (30, latitude)] {
                buffer.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
            }
            buffer[38] = 0x7C                 // MBR end
            buffer.storeBytes(of: Int32(1).littleEndian, toByteOffset: 39, as: Int32.self)  // POINT
            buffer.storeBytes(of: longitude.bitPattern.littleEndian, toByteOffset: 43, as: UInt64.self)
            buffer.storeBytes(of: latitude.bitPattern.littleEndian, toByteOffset: 51, as: UInt64.self)
            buffer[59] = 0xFE                 // end
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
