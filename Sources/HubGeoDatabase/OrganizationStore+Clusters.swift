import Foundation
import GRDB
import HubGeoClusters
import HubGeoModel

/// The clusters and organizations of one map view at one zoom, as `/api/clusters` answers them:
/// clusters with their count, box and expansion zoom; organizations alone; co-located groups
/// (organizations at exactly the same coordinates, which never split) with their organizations.
/// In a view of the whole world the counts add up to the number of organizations.
public struct MapClusters: Sendable {
    /// The zoom asked for (views beyond the index's separation zoom show its last level).
    public var zoom: Int
    /// The markers of the view.
    public var items: [Item]
    /// True when the view held more items than the limit asked for, and only that many are given.
    public var truncated = false

    /// One marker of the view, with the organizations it shows.
    public struct Item: Sendable {
        /// The cluster, organization or group: position, count, box, expansion zoom.
        public var item: ClusterIndex.Item
        /// An organization alone: itself; a co-located group: its organizations (at most the
        /// `groupLimit` asked for, by name); a cluster: none.
        public var organizations: [Organization]
    }

    /// What a map shows of an organization before it is opened.
    public struct Organization: Sendable, Equatable {
        /// The organization's stable id (``HubGeo/Organization/stableID``).
        public var stableID: String
        /// Its full name.
        public var name: String
        /// Its nickname.
        public var nickName: String
        /// Club or museum.
        public var type: OrganizationType
        /// Its town, as the Level 1 data gives it.
        public var town: String
        /// Where it is.
        public var coordinates: GeoPoint
    }

    /// The number of organizations the items stand for.
    public var organizationCount: Int { items.reduce(0) { $0 + $1.item.count } }
}

/// The loaded cluster index of a database, kept between calls (a server's requests) and loaded
/// again once an import has stored a new one. Safe to share between threads.
public final class ClusterIndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cached: (key: Key, index: ClusterIndex)?
    /// The first organizations of co-located groups larger than the limit asked for, by the group's
    /// first organization and that limit: read and sorted once per index, not at every request
    /// (a group of 10,000 at one point would otherwise be read whole for each view that shows it).
    private var largeGroups: [LargeGroup: [MapClusters.Organization]] = [:]

    private struct LargeGroup: Hashable {
        var firstID: Int64
        var limit: Int
    }

    /// Which index: the stored one of an import, or one built from the organizations of a
    /// database that holds none (made by an older hubgeo), as of its last import, or built from
    /// rows written by another program since (``OrganizationWrites``), as of its `writes`.
    struct Key: Equatable {
        var stored: Bool
        var importRun: Int64
        var writes: Int64 = 0

        /// True when the rows of `self` are at least as new as those of `other`.
        func isNewer(than other: Key) -> Bool {
            (importRun, writes) >= (other.importRun, other.writes)
        }
    }

    /// An empty cache: the first call loads the index.
    public init() {}

    /// The index of the organizations `db` holds: the cached one when it is still that, else
    /// loaded (or built) and kept if it is the newest seen.
    func index(_ db: Database) throws -> ClusterIndex {
        let key: Key
        let writes = try OrganizationWrites.sinceImport(db)
        if writes == nil, let run = try ClusterIndexTable.storedImportRun(db) {
            key = Key(stored: true, importRun: run)
        } else {
            // The stored index is not that of the rows (or there is none): built from them.
            key = Key(stored: false, importRun: try Int64.fetchOne(db, sql: "SELECT max(id) FROM import_run") ?? 0, writes: writes ?? 0)
        }
        // One loads while the others wait for it, rather than all loading the same index at once.
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.key == key { return cached.index }
        let index = key.stored ? try ClusterIndexTable.load(db) : try ClusterIndexTable.build(db)
        if cached.map({ key.isNewer(than: $0.key) }) ?? true {
            cached = (key, index)
            largeGroups = [:]
        }
        return index
    }

    /// The first `limit` organizations of a co-located group of more, as `read` gives them,
    /// kept while `index` is the cached one.
    func largeGroup(_ ids: some Collection<Int64>, limit: Int, of index: ClusterIndex,
                    read: () throws -> [MapClusters.Organization]) throws -> [MapClusters.Organization] {
        let group = LargeGroup(firstID: ids.first ?? 0, limit: limit)
        lock.lock()
        let isCached = cached.map { $0.index.isSame(as: index) } ?? false
        if isCached, let organizations = largeGroups[group] {
            lock.unlock()
            return organizations
        }
        lock.unlock()
        let organizations = try read()
        lock.lock()
        if isCached, cached.map({ $0.index.isSame(as: index) }) ?? false { largeGroups[group] = organizations }
        lock.unlock()
        return organizations
    }
}

extension OrganizationReading where Self: ~Copyable {
    /// The cluster index of the organizations: the one the last import stored, or one built from
    /// the organizations in a database that holds none (made by an older hubgeo and opened
    /// read-only since) or whose rows another program wrote since that import. `cache` keeps it
    /// between calls.
    public func clusterIndex(cache: ClusterIndexCache = ClusterIndexCache()) throws -> ClusterIndex {
        try database.read { db in try cache.index(db) }
    }

    /// The clusters, organizations and co-located groups of the view (degrees, edges inclusive;
    /// `west > east` crosses the antimeridian; a box 360° wide is the whole world) at `zoom`,
    /// read from one snapshot of the database. A group lists at most `groupLimit` organizations
    /// (by name); past `limit` items the view stops, marked ``MapClusters/truncated``.
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Int, groupLimit: Int = 100,
                         limit: Int? = nil, cache: ClusterIndexCache = ClusterIndexCache()) throws -> MapClusters {
        return try database.read { db in
            let index = try cache.index(db)
            let statement = try db.cachedStatement(sql: """
                SELECT stable_id, full_name, nick_name, type, town, latitude, longitude FROM organization WHERE id = ?
                """)
            var view = MapClusters(zoom: zoom, items: [])
            do {
                try index.forEachItem(west: west, south: south, east: east, north: north, zoom: zoom) { item in
                    if let limit, view.items.count >= limit { throw Full() }
                    func read() throws -> [MapClusters.Organization] {
                        var organizations: [MapClusters.Organization] = []
                        for rowID in item.organizationIDs {
                            guard let row = try Row.fetchOne(statement, arguments: [rowID]) else { continue }
                            let checked = CheckedRow(row, place: "organization row \(rowID)")
                            organizations.append(MapClusters.Organization(
                                stableID: try checked.text(0, "stable_id"), name: try checked.text(1, "full_name"),
                                nickName: try checked.text(2, "nick_name"), type: try checked.type(3), town: try checked.text(4, "town"),
                                coordinates: GeoPoint(latitude: try checked.number(5, "latitude", in: -90...90),
                                                      longitude: try checked.number(6, "longitude", in: -180...180))))
                        }
                        if organizations.count > 1 {
                            organizations.sort { ($0.name, $0.town) < ($1.name, $1.town) }
                            organizations = Array(organizations.prefix(max(0, groupLimit)))
                        }
                        return organizations
                    }
                    let organizations = item.organizationIDs.count > groupLimit
                        ? try cache.largeGroup(item.organizationIDs, limit: groupLimit, of: index, read: read) : try read()
                    view.items.append(MapClusters.Item(item: item, organizations: organizations))
                }
            } catch is Full {
                view.truncated = true
            }
            return view
        }
    }

    /// A short text that changes with every import (and differs between databases), and with
    /// every write of another program to the organizations since: the version of every answer
    /// that depends on the organizations alone. Nil before any import.
    public func importVersion() throws -> String? {
        try database.read { db in
            let writes = try OrganizationWrites.sinceImport(db)
            // Asked by every request of the server: prepared once per connection.
            let statement = try db.cachedStatement(sql: """
                SELECT id, imported_at || char(31) || source || char(31) || organizations || char(31) || added || char(31)
                    || changed || char(31) || removed
                FROM import_run ORDER BY id DESC LIMIT 1
                """)
            guard let row = try Row.fetchOne(statement) else { return nil }
            var hash = FNV1a()
            hash.addField(row[1] as String?)
            return "\(row[0] as Int64)-\(FNV1a.hex(hash.value))" + (writes.map { "-w\($0)" } ?? "")
        }
    }
}

/// The view of ``OrganizationReading/clusters(west:south:east:north:zoom:groupLimit:limit:cache:)`` is full.
private struct Full: Error {}
