import Foundation
import GRDB

/// The SQLite side of an MBTiles 1.3 archive (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md),
/// for HubGeoTiles' `MBTilesWriter`, so that SQLite has one owner in the package: the `metadata` and
/// `tiles` tables of a new file at `path` (the private path the publisher hands out), filled in
/// batches, indexed after the rows, and vacuumed. Written without a journal and without syncs until
/// the end: the file is published only once ``finish(metadata:)`` returns. A failed SQLite call throws
/// GRDB's `DatabaseError` (``DatabaseFailure`` reads it).
package final class MBTilesDatabase {
    private var queue: DatabaseQueue?

    /// Creates the empty tables in a new SQLite file at `path`.
    package init(path: String) throws {
        var configuration = Configuration()
        configuration.journalMode = .default
        let queue = try DatabaseQueue(path: path, configuration: configuration)
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
    }

    /// Inserts tiles (zoom, column, TMS row, the stored bytes) in one transaction.
    package func insertTiles(_ tiles: [(zoom: Int, column: Int, row: Int, data: [UInt8])]) throws {
        guard let queue, !tiles.isEmpty else { return }
        try queue.inTransaction { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            for tile in tiles {
                try statement.execute(arguments: [tile.zoom, tile.column, tile.row, Data(tile.data)])
            }
            return .commit
        }
    }

    /// Inserts the metadata rows, indexes the tiles (after their rows, so that loading them is not
    /// slowed by the index), syncs, vacuums and closes the file.
    package func finish(metadata: [(name: String, value: String)]) throws {
        guard let queue else { return }
        try queue.inTransaction { db in
            for (name, value) in metadata {
                try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
            return .commit
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL; VACUUM") }
        try close()
    }

    /// Closes the file (also after a failure; closing twice does nothing).
    package func close() throws {
        guard let queue else { return }
        self.queue = nil
        try queue.close()
    }
}
