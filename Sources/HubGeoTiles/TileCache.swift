import Foundation
import HubGeoClusters
import HubGeoDatabase

/// The tiles of a database's stored cluster index, kept between calls (a server's requests) with
/// the clubs and museums of every cluster and the organizations each large co-located group lists,
/// and made again when an import stores a new index.
public final class TileCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cached: (identity: ObjectIdentifier, tiles: ServedTiles)?

    /// The tiles, and per co-located group of more than ``OrganizationReading/tileGroupLimit``
    /// organizations the row ids of those its list shows (by its first organization's row id, which
    /// is in no other location): a served tile reads and looks at only those rows (100,000
    /// organizations at one point took 0.6 s a request when each read them all).
    struct ServedTiles {
        var tiles: ClusterTiles
        var listed: [Int64: [Int64]]
    }
    /// The cluster index under the tiles (share it with ``OrganizationReading/clusters(west:south:east:north:zoom:groupLimit:limit:cache:)``).
    public let clusterCache: ClusterIndexCache

    /// An empty cache over `clusterCache`.
    public init(clusterCache: ClusterIndexCache = ClusterIndexCache()) {
        self.clusterCache = clusterCache
    }

    func tiles(_ store: borrowing StoreSnapshot) throws -> ClusterTiles { try served(store).tiles }

    func served(_ store: borrowing StoreSnapshot) throws -> ServedTiles {
        let index = try store.clusterIndex(cache: clusterCache)
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.identity == index.storageIdentity { return cached.tiles }
        var listed: [Int64: [Int64]] = [:]
        for location in index.locations(holdingMoreThan: StoreSnapshot.tileGroupLimit) {
            let members = try index.item(id: location).organizationIDs
            guard let first = members.first else { continue }
            listed[first] = try store.firstByName(ids: members, limit: StoreSnapshot.tileGroupLimit)
        }
        let served = ServedTiles(tiles: ClusterTiles(index: index, museums: try store.museumCounts(of: index)), listed: listed)
        cached = (index.storageIdentity, served)
        return served
    }
}
