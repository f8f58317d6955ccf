import HubGeoDatabase
import HubGeoOutput

/// Writes an MBTiles 1.3 file (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md):
/// the `metadata` table (name, format `pbf`, bounds, center, zooms, attribution, and `json` with
/// the `vector_layers`) and the `tiles` table of gzip-compressed MVT tiles, rows in the TMS scheme
/// (y counted from the south). SQLite builds it, through the SQLite owner HubGeoDatabase
/// (`MBTilesDatabase`), at the private path hubgeo's publisher hands out (`StagedOutput`), which is
/// published when complete, as every output of hubgeo: renamed over `path`, or written into a device
/// or FIFO there.
public final class MBTilesWriter: TileArchiveWriter {
    /// The archive's path.
    public let path: String
    private let output: StagedOutput
    private var database: MBTilesDatabase?
    private var pending: [(TileAddress, [UInt8])] = []

    /// A writer of an MBTiles archive at `path`, built beside it and published by ``finish(_:)``.
    /// Refuses at once what cannot be written (a directory, the databases `protectedPaths` and the
    /// files SQLite keeps beside them).
    public init(path: String, protecting protectedPaths: [String] = []) throws {
        self.path = path
        output = try StagedOutput(path: path, kind: .file, protecting: protectedPaths)
        do {
            database = try MBTilesDatabase(path: output.workPath)
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
        guard let database, !pending.isEmpty else { return }
        let batch = pending.map { (zoom: $0.0.z, column: $0.0.x, row: $0.0.tmsY, data: $0.1) }
        pending.removeAll(keepingCapacity: true)
        try database.insertTiles(batch)
    }

    /// Writes the metadata and publishes the archive (not once SIGINT or SIGTERM arrived, however
    /// late: the publisher checks).
    public func finish(_ metadata: TileSetMetadata) throws {
        guard let database else { throw TileArchiveError("\(path) was already closed") }
        do {
            try flush()
            try database.finish(metadata: metadata.mbtilesRows.map { (name: $0.0, value: $0.1) })
            self.database = nil
            try output.commit()
        } catch let error where DatabaseFailure(error) != nil {
            abandon()
            throw TileArchiveError("cannot write \(path): \(error)")
        } catch {
            abandon()
            throw error
        }
    }

    /// Removes the unfinished archive.
    public func abandon() {
        if let database {
            try? database.close()
            self.database = nil
        }
        output.abandon()
    }

    deinit {
        abandon()
    }
}
