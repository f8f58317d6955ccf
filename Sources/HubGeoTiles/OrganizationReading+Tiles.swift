import Foundation
import HubGeoClusters
import HubGeoDatabase
import HubGeoModel

extension OrganizationReading where Self: ~Copyable {
    /// The most organizations a co-located group lists in a tile, as in `/api/clusters`.
    public static var tileGroupLimit: Int { 100 }

    /// The vector tile (MVT 2.1) of `tile` (``ClusterTiles``): the clusters and organizations of
    /// the stored cluster index at its zoom, with the cached places of `localization`; empty when
    /// nothing lies there. Read from one snapshot of the database, in one query of the rows it
    /// lists (a large co-located group's first by name, which `cache` keeps).
    public func tile(_ tile: TileAddress, localization: LocalizationSource? = nil, cache: TileCache = TileCache()) throws -> [UInt8] {
        try snapshot { store in
            let served = try cache.served(store)
            let ids = try served.tiles.organizationIDs(in: tile) { members in members.first.flatMap { served.listed[$0] } ?? Array(members) }
            var rows = TileRowTable()
            for row in try store.mapRows(ids: ids, localization: localization).values.sorted(by: { $0.rowID < $1.rowID }) {
                rows.append(id: row.rowID, row)
            }
            rows.finish()
            return try served.tiles.tile(tile, attributes: TileRowAttributes(rows: rows, groupLimit: Self.tileGroupLimit, listed: served.listed))
        }
    }

    /// The tiles of the stored cluster index, with the clubs and museums of its items (kept by `cache`).
    public func clusterTiles(cache: TileCache = TileCache()) throws -> ClusterTiles {
        try snapshot { store in try cache.tiles(store) }
    }

    /// The metadata of the stored index's tiles (bounds, zooms up to `maximumZoom`, by default the
    /// separation zoom, at most ``ClusterIndex``'s limit), for TileJSON.
    public func tileSetMetadata(language: String? = nil, maximumZoom: Int? = nil, cache: TileCache = TileCache()) throws -> TileSetMetadata {
        try snapshot { store in
            let tiles = try cache.tiles(store)
            var metadata = TileSetMetadata()
            if let bounds = tiles.bounds { metadata.bounds = bounds }
            metadata.maximumZoom = maximumZoom ?? tiles.defaultMaximumZoom(cap: ClusterOptions.zoomLimit)
            metadata.language = language
            return metadata
        }
    }

    /// Writes the tiles of zooms 0...`maximumZoom` (by default the separation zoom of the
    /// organizations, at most 14) of the organizations `selection` and `type` pick to `archive`,
    /// with the cached places of `localization`, and finishes it (publishes it). The whole
    /// database uses the stored cluster index; a selection is clustered first, with the same
    /// parameters. Read from one snapshot of the database. On an error the archive is abandoned.
    public func writeTiles(to archive: TileArchiveWriter, selection: OrganizationSelection = .all, type: OrganizationType? = nil,
                           localization: LocalizationSource? = nil, maximumZoom: Int? = nil,
                           progress: ((TileProgress) -> Void)? = nil) throws -> TileSetSummary {
        do {
            return try snapshot { store in
                // The index first: loading it briefly holds its blob too, before the rows are read.
                let whole = selection == .all && type == nil
                let stored = whole ? try store.clusterIndex() : nil
                var rows = TileRowTable()
                var organizations: [ClusterIndex.Organization] = []
                try store.forEachMapRow(selection, filter: OrganizationFilter(type: type, localization: localization)) { row in
                    rows.append(id: row.rowID, row)
                    if !whole { organizations.append(ClusterIndex.Organization(id: row.rowID, latitude: row.latitude, longitude: row.longitude)) }
                }
                rows.finish()
                let index = try stored ?? ClusterIndex(organizations.sorted { $0.id < $1.id })
                organizations = []
                let tiles = ClusterTiles(index: index, museums: index.nodeCounts { rows.isMuseum($0) })
                let top = maximumZoom ?? tiles.defaultMaximumZoom()
                var metadata = TileSetMetadata()
                if let bounds = tiles.bounds { metadata.bounds = bounds }
                metadata.maximumZoom = top
                metadata.language = localization?.language
                let attributes = TileRowAttributes(rows: rows, groupLimit: Self.tileGroupLimit)
                // The work of a zoom grows with its items: 4^z tiles at most, every location at most.
                let weights = (0...top).map { Double(min(1 << min(2 * $0, 40), max(1, index.locationCount))) }
                let total = weights.reduce(0, +)
                var done = 0.0
                var count = 0
                let start = Date()
                for zoom in 0...top {
                    var lastReport = Date()
                    // Encoded and compressed on every processor; added in order here.
                    try tiles.forEachTile(zoom: zoom, attributes: attributes, threads: Parallel.processorCount,
                                          encoding: archive.tileEncoding) { tile, stored in
                        // Stops at once on SIGINT or SIGTERM (when the command installed the handlers).
                        try Interruption.check()
                        try archive.add(tile, stored: stored)
                        count += 1
                        if let progress, count % 256 == 0, Date().timeIntervalSince(lastReport) > 0.1 {
                            lastReport = Date()
                            progress(TileProgress(zoom: zoom, maximumZoom: top, tiles: count, fraction: done / total,
                                                  elapsed: Date().timeIntervalSince(start)))
                        }
                    }
                    done += weights[zoom]
                    progress?(TileProgress(zoom: zoom, maximumZoom: top, tiles: count, fraction: done / total,
                                           elapsed: Date().timeIntervalSince(start)))
                }
                try archive.finish(metadata)
                return TileSetSummary(organizations: index.organizationCount, tiles: count, maximumZoom: top, metadata: metadata)
            }
        } catch {
            archive.abandon()
            throw error
        }
    }
}
