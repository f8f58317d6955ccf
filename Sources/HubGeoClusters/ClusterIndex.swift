/// Clusters of organizations for every zoom of a map, computed once and queried per view.
///
/// **What it is.** The hierarchical greedy clustering of Mapbox's supercluster: organizations are
/// projected to Web Mercator (the world is the unit square); at zoom z, items closer than
/// d(z) = radius / (extent · 2^z) become one cluster at their count-weighted centre, built level by
/// level from the zoom where everything stands alone down to zoom 0, each level clustering the
/// items of the level above. A view at zoom z returns the items of level z inside it: clusters
/// with their count, the box of their organizations and the zoom at which they split, and
/// locations (an organization alone, or a co-located group of organizations at exactly the same
/// coordinates, which stays one item at every zoom so that the page can list it).
///
/// **How far the zooms go.** There is no fixed maximum zoom: the index stops at the
/// *separation zoom*, the lowest zoom at which no two locations are within the clustering
/// distance (found from each location's nearest neighbour), so from there on every item is a
/// location and a view at a higher zoom is answered from that level. It is capped at
/// `maximumZoom` (24 by default): d(23) is about 1.1 m at the equator with the default radius, so
/// only locations less than a metre or so apart, closer than geocoding tells places apart (two
/// doors of one building), wait for zoom 24 to stand apart, and Mapbox GL and Leaflet maps do not
/// usefully zoom further.
///
/// **Parameters.** Radius 60 on an extent of 256: Leaflet draws 256-pixel tiles, so items closer
/// than 60 screen pixels are clustered, which leaves room for round count markers of 30–40
/// pixels (Leaflet.markercluster's default radius is 80 pixels, supercluster's Leaflet demo
/// uses 60 on 256). Zoom 0 is the lowest level.
///
/// **How it is built.** See `ClusterBuilder`: the levels are the same as supercluster's, but a
/// level only visits the items that can take part in a cluster there (found from nearest-neighbour
/// distances), so the many high zooms where only a few close pairs merge cost little; the
/// searches, sorts and zoom bands are spread over the processors, with the same result for any
/// number of them. Each cluster is one node, made once; it keeps its id at all the zooms it is
/// shown at (an item carried up unchanged is the same node), so ids are node numbers: locations
/// first (in kd-tree order, so that nodes near each other on the map are near each other in
/// memory), then clusters in the order they were made. Unlike supercluster's ids they need no
/// zoom in them, since no per-zoom array has to be found. The same organizations give the same
/// ids in every build.
///
/// **How it is stored.** Flat arrays only (no object per item): the organizations in location
/// order, per node its zoom range, per cluster its count, centre, outward-rounded float box and
/// children; and for queries, kd-trees (KDBush layout) grouped in *zoom bands*: a band's tree
/// holds every node shown at one of its zooms, each entry with its zoom range, and a query keeps
/// the entries shown at its zoom. Bands grow down from the separation zoom while the tree stays
/// within three times the items of its lowest zoom, so the high zooms, which differ little,
/// share one tree (a view scans at most three entries per item it returns), and the low zooms,
/// with few items, have small trees of their own. The arrays serialize as they are
/// (`serialized()`), and loading one (`init(serialized:)`) checks and maps them without
/// building anything.
public struct ClusterIndex: Sendable {
    let storage: ClusterStorage

    /// The most organizations an index holds (its node numbers are 32-bit).
    public static let maximumOrganizationCount = Int(Int32.max) / 2 - 1

    /// Builds the index of `organizations` (ids of the caller's choosing, coordinates in
    /// degrees: latitude in [-90, 90], longitude in [-180, 180]) on all processors. An array
    /// (any collection with contiguous storage) is read in place; other collections are copied
    /// into one first.
    public init(
        _ organizations: some Collection<Organization>, options: ClusterOptions = ClusterOptions()
    ) throws(ClusterIndexError) {
        try self.init(organizations, options: options, threads: Parallel.processorCount)
    }

    /// Builds on exactly `threads` threads (the result is the same for any number).
    init(
        _ organizations: some Collection<Organization>, options: ClusterOptions = ClusterOptions(), threads: Int
    ) throws(ClusterIndexError) {
        let built = organizations.withContiguousStorageIfAvailable { organizations in
            Result { () throws(ClusterIndexError) in try ClusterBuilder.build(organizations, options: options, threads: threads) }
        } ?? Array(organizations).withUnsafeBufferPointer { organizations in
            Result { () throws(ClusterIndexError) in try ClusterBuilder.build(organizations, options: options, threads: threads) }
        }
        storage = try built.get()
    }

    init(storage: ClusterStorage) {
        self.storage = storage
    }

    /// The parameters the index was built with.
    public var options: ClusterOptions { storage.options }

    /// True when `other` is this index (the same loaded storage), not merely an equal one.
    package func isSame(as other: ClusterIndex) -> Bool { storage === other.storage }

    /// The number of organizations indexed.
    public var organizationCount: Int { storage.organizationCount }
    /// The number of locations: organizations alone and co-located groups.
    public var locationCount: Int { storage.groupCount }
    /// The number of clusters over all zooms.
    public var clusterCount: Int { storage.clusterCount }
    /// The lowest zoom at which every item is a location; views at higher zooms show the same.
    public var separationZoom: Int { storage.separationZoom }

    // MARK: Views

    /// The clusters and locations of zoom `zoom` (clamped to 0...separationZoom) whose position
    /// lies in the box (edges inclusive, degrees). A box whose east edge is west of its west
    /// edge, or that reaches beyond ±180°, crosses the antimeridian and is searched as two;
    /// a box 360° wide or more is the whole world. Latitudes are clamped to [-90, 90].
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Int) -> [Item] {
        var items: [Item] = []
        forEachItem(west: west, south: south, east: east, north: north, zoom: zoom) { items.append($0) }
        return items
    }

    /// Visits the items ``clusters(west:south:east:north:zoom:)`` returns, in the same order,
    /// without collecting them (for writing an answer as they come).
    public func forEachItem(
        west: Double, south: Double, east: Double, north: Double, zoom: Int, _ visit: (Item) throws -> Void
    ) rethrows {
        try forEachNode(west: west, south: south, east: east, north: north, zoom: zoom) { node, x, y in
            try visit(item(node: node, x: x, y: y))
        }
    }

    /// Visits the node number and Web Mercator position of every item of the view.
    func forEachNode(
        west: Double, south: Double, east: Double, north: Double, zoom: Int,
        _ visit: (_ node: Int, _ x: Double, _ y: Double) throws -> Void
    ) rethrows {
        guard west.isFinite, south.isFinite, east.isFinite, north.isFinite, storage.nodeCount > 0 else { return }
        var width = east - west
        if width < 0 { width += 360 }
        guard width >= 0 else { return }
        let minY = WebMercator.y(latitude: min(90, max(-90, north)))
        let maxY = WebMercator.y(latitude: min(90, max(-90, south)))
        let level = min(storage.separationZoom, max(0, zoom))
        if width >= 360 {
            try forEachNode(minX: 0, minY: minY, maxX: 1, maxY: maxY, level: level, visit)
            return
        }
        let start = ((west + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let end = start + width
        if end <= 180 {
            try forEachNode(minX: WebMercator.x(longitude: start), minY: minY,
                            maxX: WebMercator.x(longitude: end), maxY: maxY, level: level, visit)
        } else {
            try forEachNode(minX: WebMercator.x(longitude: start), minY: minY, maxX: 1, maxY: maxY, level: level, visit)
            try forEachNode(minX: 0, minY: minY, maxX: WebMercator.x(longitude: end - 360), maxY: maxY, level: level, visit)
        }
    }

    /// The nodes of `level` whose Web Mercator position lies in the box (edges inclusive, no wrapping).
    func forEachNode(
        minX: Double, minY: Double, maxX: Double, maxY: Double, level: Int,
        _ visit: (_ node: Int, _ x: Double, _ y: Double) throws -> Void
    ) rethrows {
        let band = storage.bandOfZoom[level]
        let tree = storage.tree(ofBand: band)
        let zooms = storage.bandEntryZooms.baseAddress! + 2 * Int(storage.bandStarts[band])
        let level = UInt8(level)
        try tree.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { slot in
            if zooms[2 * slot] <= level && zooms[2 * slot + 1] >= level {
                try visit(Int(tree.ids[slot]), tree.coordinates[2 * slot], tree.coordinates[2 * slot + 1])
            }
        }
    }

    // MARK: Walking down

    /// The item with this id.
    public func item(id: Int) throws(ClusterIndexError) -> Item {
        try check(id)
        return item(node: id)
    }

    /// The items a cluster splits into at its expansion zoom (empty for a location).
    public func children(of id: Int) throws(ClusterIndexError) -> [Item] {
        try check(id)
        guard id >= storage.groupCount else { return [] }
        let cluster = id - storage.groupCount
        return (Int(storage.childStarts[cluster])..<Int(storage.childStarts[cluster + 1])).map {
            item(node: Int(storage.children[$0]))
        }
    }

    /// The ids of the organizations in a cluster or location, `limit` of them from `offset`
    /// on, in a fixed order (children in turn, each location's organizations in input order).
    public func leaves(of id: Int, limit: Int = 10, offset: Int = 0) throws(ClusterIndexError) -> [Int64] {
        try check(id)
        var leaves: [Int64] = []
        guard limit > 0 else { return leaves }
        var skip = max(0, offset)
        appendLeaves(of: id, limit: limit, skip: &skip, into: &leaves)
        return leaves
    }

    private func appendLeaves(of node: Int, limit: Int, skip: inout Int, into leaves: inout [Int64]) {
        if node < storage.groupCount {
            let start = Int(storage.groupStarts[node]), end = Int(storage.groupStarts[node + 1])
            if skip >= end - start {
                skip -= end - start
                return
            }
            for slot in (start + skip)..<end {
                if leaves.count == limit { break }
                leaves.append(storage.organizationIDs[slot])
            }
            skip = 0
            return
        }
        let cluster = node - storage.groupCount
        if skip >= Int(storage.clusterCounts[cluster]) {
            skip -= Int(storage.clusterCounts[cluster])
            return
        }
        for slot in Int(storage.childStarts[cluster])..<Int(storage.childStarts[cluster + 1]) {
            if leaves.count == limit { return }
            appendLeaves(of: Int(storage.children[slot]), limit: limit, skip: &skip, into: &leaves)
        }
    }

    /// The zoom at which a cluster splits into two or more items (supercluster's
    /// getClusterExpansionZoom); nil for a location, which never splits.
    public func expansionZoom(of id: Int) throws(ClusterIndexError) -> Int? {
        try check(id)
        return id < storage.groupCount ? nil : Int(storage.nodeZooms[2 * id + 1]) + 1
    }

    private func check(_ id: Int) throws(ClusterIndexError) {
        guard id >= 0 && id < storage.nodeCount else { throw .unknownID(id) }
    }

    // MARK: Items

    /// The item of a node; `x` and `y` when the caller has them at hand.
    func item(node: Int, x: Double? = nil, y: Double? = nil) -> Item {
        let storage = self.storage
        let zooms = Int(storage.nodeZooms[2 * node])...Int(storage.nodeZooms[2 * node + 1])
        if node < storage.groupCount {
            let start = Int(storage.groupStarts[node]), end = Int(storage.groupStarts[node + 1])
            let latitude = storage.organizationLatitudes[start], longitude = storage.organizationLongitudes[start]
            var bounds = Bounds(south: latitude, west: longitude, north: latitude, east: longitude)
            for slot in (start + 1)..<end {
                bounds.south = min(bounds.south, storage.organizationLatitudes[slot])
                bounds.north = max(bounds.north, storage.organizationLatitudes[slot])
                bounds.west = min(bounds.west, storage.organizationLongitudes[slot])
                bounds.east = max(bounds.east, storage.organizationLongitudes[slot])
            }
            return Item(
                id: node, kind: end - start == 1 ? .organization : .colocatedGroup,
                latitude: latitude, longitude: longitude, count: end - start, bounds: bounds,
                expansionZoom: nil, organizationIDs: OrganizationIDs(storage: storage, range: start..<end),
                zooms: zooms,
                x: x ?? WebMercator.x(longitude: longitude), y: y ?? WebMercator.y(latitude: latitude))
        }
        let cluster = node - storage.groupCount
        let px = storage.clusterPositions[2 * cluster], py = storage.clusterPositions[2 * cluster + 1]
        let box = 4 * cluster
        return Item(
            id: node, kind: .cluster,
            latitude: WebMercator.latitude(y: py), longitude: WebMercator.longitude(x: px),
            count: Int(storage.clusterCounts[cluster]),
            bounds: Bounds(
                south: Double(storage.clusterBounds[box]), west: Double(storage.clusterBounds[box + 1]),
                north: Double(storage.clusterBounds[box + 2]), east: Double(storage.clusterBounds[box + 3])),
            expansionZoom: zooms.upperBound + 1, organizationIDs: OrganizationIDs(storage: nil, range: 0..<0),
            zooms: zooms, x: px, y: py)
    }
}
