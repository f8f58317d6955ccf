import Foundation
import GRDB

/// Writes an MBTiles 1.3 file (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md):
/// the `metadata` table (name, format `pbf`, bounds, center, zooms, attribution, and `json` with
/// the `vector_layers`) and the `tiles` table of gzip-compressed MVT tiles, rows in the TMS scheme
/// (y counted from the south). Written under a temporary name beside `path` and renamed over it
/// when complete, as every output of hubgeo.
public final class MBTilesWriter: TileArchiveWriter {
    /// The archive's path.
    public let path: String
    private let temporaryPath: String
    private var queue: DatabaseQueue?
    private var pending: [(TileAddress, [UInt8])] = []

    /// A writer of an MBTiles archive at `path`, built beside it and renamed into place by ``finish(_:)``.
    public init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/.\(url.lastPathComponent).hubgeo-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw TileArchiveError.system("create a file in", path: directory) }
        close(descriptor)
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            var configuration = Configuration()
            configuration.journalMode = .default
            let queue = try DatabaseQueue(path: temporaryPath, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: """
                    PRAGMA journal_mode = OFF;
                    PRAGMA synchronous = OFF;
                    PRAGMA page_size = 4096;
                    CREATE TABLE metadata (name TEXT, value TEXT);
                    CREATE UNIQUE INDEX name ON metadata (name);
                    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                    """)
            }
            self.queue = queue
        } catch {
            unlink(temporaryPath)
            throw TileArchiveError("cannot write \(path): \(error)")
        }
    }

    /// How the tiles handed to ``add(_:stored:)`` are encoded.
    public var tileEncoding: TileEncoding { .gzip }

    /// Adds one tile's MVT.
    public func add(_ tile: TileAddress, _ mvt: [UInt8]) throws {
        try add(tile, stored: try Gzip.compress(mvt))
    }

    /// Adds one tile already encoded as ``tileEncoding`` says.
    public func add(_ tile: TileAddress, stored data: [UInt8]) throws {
        pending.append((tile, data))
        if pending.count >= 4096 { try flush() }
    }

    private func flush() throws {
        guard let queue, !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        try queue.inTransaction { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            for (tile, data) in batch {
                try statement.execute(arguments: [tile.z, tile.x, tile.tmsY, Data(data)])
            }
            return .commit
        }
    }

    /// Writes the metadata and publishes the archive.
    public func finish(_ metadata: TileSetMetadata) throws {
        guard let queue else { throw TileArchiveError("\(path) was already closed") }
        do {
            try flush()
            try queue.inTransaction { db in
                for (name, value) in metadata.mbtilesRows {
                    try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
                // After the rows, so that loading them is not slowed by the index.
                try db.execute(sql: "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
                return .commit
            }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL; VACUUM") }
            try queue.close()
            self.queue = nil
            let descriptor = open(temporaryPath, O_RDONLY)
            if descriptor >= 0 {
                fsync(descriptor)
                close(descriptor)
            }
            guard rename(temporaryPath, path) == 0 else { throw TileArchiveError.system("rename \(temporaryPath) to", path: path) }
        } catch let error as TileArchiveError {
            abandon()
            throw error
        } catch {
            abandon()
            throw TileArchiveError("cannot write \(path): \(error)")
        }
    }

    /// Removes the unfinished archive.
    public func abandon() {
        if let queue {
            try? queue.close()
            self.queue = nil
            unlink(temporaryPath)
        }
    }

    deinit {
        abandon()
    }
}
