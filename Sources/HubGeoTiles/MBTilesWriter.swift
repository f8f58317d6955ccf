import Foundation
import GRDB
import HubGeoOutput

/// Writes an MBTiles 1.3 file (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md):
/// the `metadata` table (name, format `pbf`, bounds, center, zooms, attribution, and `json` with
/// the `vector_layers`) and the `tiles` table of gzip-compressed MVT tiles, rows in the TMS scheme
/// (y counted from the south). SQLite builds it at the private path hubgeo's publisher hands out
/// (`StagedOutput`), which is published when complete, as every output of hubgeo: renamed over
/// `path`, or written into a device or FIFO there.
public final class MBTilesWriter: TileArchiveWriter {
    /// The archive's path.
    public let path: String
    private let output: StagedOutput
    private var queue: DatabaseQueue?
    private var pending: [(TileAddress, [UInt8])] = []

    /// A writer of an MBTiles archive at `path`, built beside it and published by ``finish(_:)``.
    /// Refuses at once what cannot be written (a directory, the databases `protectedPaths` and the
    /// files SQLite keeps beside them).
    public init(path: String, protecting protectedPaths: [String] = []) throws {
        self.path = path
        output = try StagedOutput(path: path, kind: .file, protecting: protectedPaths)
        do {
            var configuration = Configuration()
            configuration.journalMode = .default
            let queue = try DatabaseQueue(path: output.workPath, configuration: configuration)
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
            output.abandon()
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

    /// Writes the metadata and publishes the archive (not once SIGINT or SIGTERM arrived, however
    /// late: the publisher checks).
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
            try output.commit()
        } catch let error as DatabaseError {
            abandon()
            throw TileArchiveError("cannot write \(path): \(error)")
        } catch {
            abandon()
            throw error
        }
    }

    /// Removes the unfinished archive.
    public func abandon() {
        if let queue {
            try? queue.close()
            self.queue = nil
        }
        output.abandon()
    }

    deinit {
        abandon()
    }
}
