import HubGeoClusters

/// The vector tiles of a cluster index: for any tile, the clusters and locations of its zoom
/// that lie in it (and its buffer), encoded as a Mapbox Vector Tile (MVT 2.1) of two layers
/// (``TileLayers``):
///
/// - `clusters`: a point per cluster with `id` ("c" + its number, as `/api/clusters` names it),
///   `count`, `clubs`, `museums`, `expansionZoom` and its box `west`, `south`, `east`, `north`;
/// - `organizations`: a point per organization alone (`kind` "organization" and the caller's
///   properties: id, name, nickName, type, town...) or co-located group (`kind` "colocated", `id`
///   "g" + its number, `count`, `clubs`, `museums` and the caller's group properties).
///
/// Every feature's MVT id is the item's number in the index. Features are in item order, so a
/// tile's bytes depend only on the index, the counts and the attributes. Zooms beyond the index's
/// separation zoom show its last level.
public struct ClusterTiles: Sendable {
    /// The cluster index the tiles show.
    public let index: ClusterIndex
    /// Per item id, the museums among its organizations (the rest are clubs).
    let museums: [UInt32]
    /// The tiles' extent and buffer.
    public let grid: TileGrid

    /// The tiles of `index`, whose items hold `museums[id]` museums each.
    public init(index: ClusterIndex, museums: [UInt32], grid: TileGrid = TileGrid()) {
        precondition(museums.count == index.nodeCount, "one museum count per item of the index")
        self.index = index
        self.museums = museums
        self.grid = grid
    }

    /// The museums among the organizations of the item with this id (the rest are clubs).
    public func museums(inItem id: Int) -> Int { Int(museums[id]) }

    /// The zoom a tile set needs: the index's separation zoom (from there on every item is a
    /// location, and clients overzoom), at most `cap`.
    public func defaultMaximumZoom(cap: Int = 14) -> Int { min(index.separationZoom, cap) }

    /// One item placed in a tile: its number, the world it was shifted by (-1, 0, 1: the copy of a
    /// point across the antimeridian in the tile's buffer) and its tile coordinates.
    struct Placement {
        var node: Int32
        var shift: Int8
        var x: Int32
        var y: Int32
    }

    /// The MVT of `tile`; empty when nothing lies in it.
    public func tile(_ tile: TileAddress, attributes: some TileAttributes) throws -> [UInt8] {
        try encode(placements(of: tile), attributes: attributes)
    }

    /// The items in `tile` and its buffer, in item order.
    func placements(of tile: TileAddress) -> [Placement] {
        let scale = Double(tile.size), margin = grid.margin
        let minY = max(0, (Double(tile.y) - margin) / scale), maxY = min(1, (Double(tile.y) + 1 + margin) / scale)
        var placements: [Placement] = []
        for shift in -1...1 {
            let minX = max(0, (Double(tile.x) - margin) / scale - Double(shift))
            let maxX = min(1, (Double(tile.x) + 1 + margin) / scale - Double(shift))
            guard minX <= maxX else { continue }
            index.forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: tile.z) { item in
                let x = grid.local(item.mercatorX + Double(shift), tile: tile.x, scale: scale)
                let y = grid.local(item.mercatorY, tile: tile.y, scale: scale)
                if grid.includes(x: x, y: y) {
                    placements.append(Placement(node: Int32(item.id), shift: Int8(shift), x: Int32(x), y: Int32(y)))
                }
            }
        }
        placements.sort { ($0.node, $0.shift) < ($1.node, $1.shift) }
        return placements
    }

    /// Visits every tile of zoom `zoom` that holds something, in PMTiles order (``TileAddress/pmtilesID``),
    /// with its MVT: one pass over the items of the zoom, each put in the tiles whose box or
    /// buffer holds it. The same tiles as ``tile(_:attributes:)`` gives one by one.
    public func forEachTile(zoom: Int, attributes: some TileAttributes,
                            _ body: (TileAddress, [UInt8]) throws -> Void) throws {
        precondition((0...TileAddress.maximumZoom).contains(zoom), "zoom out of range")
        let size = 1 << zoom, scale = Double(size), margin = grid.margin
        var entries: [TileEntry] = []
        entries.reserveCapacity(index.locationCount + index.clusterCount / 4)
        var lastTile = (x: -1, y: -1, id: UInt64(0))
        index.forEachItem(minX: 0, minY: 0, maxX: 1, maxY: 1, zoom: zoom) { item in
            let py = item.mercatorY * scale
            let rows = max(0, Int((py - margin).rounded(.down)))...min(size - 1, Int((py + margin).rounded(.down)))
            for shift in -1...1 {
                let position = item.mercatorX + Double(shift)
                let px = position * scale
                let low = max(0, Int((px - margin).rounded(.down))), high = min(size - 1, Int((px + margin).rounded(.down)))
                guard low <= high else { continue }
                for tx in low...high {
                    let x = grid.local(position, tile: tx, scale: scale)
                    for ty in rows {
                        let y = grid.local(item.mercatorY, tile: ty, scale: scale)
                        guard grid.includes(x: x, y: y) else { continue }
                        if lastTile.x != tx || lastTile.y != ty {
                            lastTile = (tx, ty, TileAddress(unchecked: zoom, tx, ty).pmtilesID)
                        }
                        entries.append(TileEntry(id: lastTile.id,
                                             placement: Placement(node: Int32(item.id), shift: Int8(shift), x: Int32(x), y: Int32(y)),
                                             x: Int32(tx), y: Int32(ty)))
                    }
                }
            }
        }
        entries.sort { ($0.id, $0.placement.node, $0.placement.shift) < ($1.id, $1.placement.node, $1.placement.shift) }
        var start = 0
        var placements: [Placement] = []
        while start < entries.count {
            var end = start
            placements.removeAll(keepingCapacity: true)
            while end < entries.count && entries[end].id == entries[start].id {
                placements.append(entries[end].placement)
                end += 1
            }
            let tile = TileAddress(unchecked: zoom, Int(entries[start].x), Int(entries[start].y))
            try body(tile, try encode(placements, attributes: attributes))
            start = end
        }
    }

    /// An item placed in a tile of a zoom being written whole: the tile (id and column, row) and the placement.
    struct TileEntry {
        var id: UInt64
        var placement: Placement
        var x: Int32
        var y: Int32
    }

    /// The MVT of the placed items.
    func encode(_ placements: [Placement], attributes: some TileAttributes) throws -> [UInt8] {
        guard !placements.isEmpty else { return [] }
        var clusters = VectorTileLayer(name: TileLayers.clusters, extent: grid.extent)
        var organizations = VectorTileLayer(name: TileLayers.organizations, extent: grid.extent)
        var properties: [TileProperty] = []
        for placement in placements {
            let node = Int(placement.node)
            let item = try index.item(id: node)
            let museums = UInt64(self.museums[node]), count = UInt64(item.count)
            properties.removeAll(keepingCapacity: true)
            switch item.kind {
            case .cluster:
                properties.append(TileProperty("id", "c\(node)"))
                properties.append(TileProperty("count", .unsigned(count)))
                properties.append(TileProperty("clubs", .unsigned(count - museums)))
                properties.append(TileProperty("museums", .unsigned(museums)))
                properties.append(TileProperty("expansionZoom", .unsigned(UInt64(item.expansionZoom ?? 0))))
                properties.append(TileProperty("west", .double(item.bounds.west)))
                properties.append(TileProperty("south", .double(item.bounds.south)))
                properties.append(TileProperty("east", .double(item.bounds.east)))
                properties.append(TileProperty("north", .double(item.bounds.north)))
                clusters.addPoint(id: UInt64(node), x: Int(placement.x), y: Int(placement.y), properties: properties)
            case .organization:
                properties.append(TileProperty("kind", "organization"))
                if let id = item.organizationIDs.first, let own = try attributes.organization(id) { properties += own }
                organizations.addPoint(id: UInt64(node), x: Int(placement.x), y: Int(placement.y), properties: properties)
            case .colocatedGroup:
                properties.append(TileProperty("kind", "colocated"))
                properties.append(TileProperty("id", "g\(node)"))
                properties.append(TileProperty("count", .unsigned(count)))
                properties.append(TileProperty("clubs", .unsigned(count - museums)))
                properties.append(TileProperty("museums", .unsigned(museums)))
                properties += try attributes.group(item.organizationIDs)
                organizations.addPoint(id: UInt64(node), x: Int(placement.x), y: Int(placement.y), properties: properties)
            }
        }
        var tile = ProtobufWriter()
        if clusters.featureCount > 0 { clusters.encode(into: &tile) }
        if organizations.featureCount > 0 { organizations.encode(into: &tile) }
        return tile.bytes
    }
}

extension ClusterTiles {
    /// The box of every organization (west, south, east, north), from the items of zoom 0; nil
    /// for an empty index.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)? {
        var box: (west: Double, south: Double, east: Double, north: Double)?
        index.forEachItem(minX: 0, minY: 0, maxX: 1, maxY: 1, zoom: 0) { item in
            let b = item.bounds
            box = box.map { (min($0.west, b.west), min($0.south, b.south), max($0.east, b.east), max($0.north, b.north)) }
                ?? (b.west, b.south, b.east, b.north)
        }
        return box.map { (max(-180, $0.west), max(-90, $0.south), min(180, $0.east), min(90, $0.north)) }
    }
}
