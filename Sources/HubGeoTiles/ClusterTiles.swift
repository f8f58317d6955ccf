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
/// A feature's MVT id is the item's number in the index, once per layer (MVT 2.1 §4.2: ids SHOULD
/// be unique): at zoom 0 a point near the antimeridian lies in the tile and, a world away, in its
/// buffer (a point on ±180 on both edges); the copy the tile owns (``TileGrid/owns(x:y:in:)``'s
/// columns) carries the id, the other has none. Features are in item order, so a
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

    /// The row ids of the organizations whose properties the features of `tile` give: each
    /// organization alone, and of each co-located group those `listed` gives (called with the
    /// group's organizations; it may give them all). What a served tile reads.
    package func organizationIDs(in tile: TileAddress, listed: (ClusterIndex.OrganizationIDs) -> [Int64]) throws -> [Int64] {
        var ids: [Int64] = []
        for placement in placements(of: tile) {
            let item = try index.item(id: Int(placement.node))
            switch item.kind {
            case .cluster: break
            case .organization: if let id = item.organizationIDs.first { ids.append(id) }
            case .colocatedGroup: ids += listed(item.organizationIDs)
            }
        }
        return ids
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
    /// with its MVT (gzip-compressed with `encoding` ``TileEncoding/gzip``): one pass over the items of
    /// the zoom, each put in the tiles whose box or buffer holds it. The same tiles as
    /// ``tile(_:attributes:)`` gives one by one. With `threads` above 1 the tiles are encoded on that many
    /// threads, which then read `attributes` at the same time (it must allow that); `body` is called on
    /// the calling thread, in order, whatever the threads.
    public func forEachTile(zoom: Int, attributes: some TileAttributes, threads: Int = 1, encoding: TileEncoding = .identity,
                            _ body: (TileAddress, [UInt8]) throws -> Void) throws {
        precondition((0...TileAddress.maximumZoom).contains(zoom), "zoom out of range")
        let size = 1 << zoom
        // The zoom in parts: the quadrants of zoom `level` (up to 256), in PMTiles order, whose tiles follow
        // each other in that order at every zoom below them (the Hilbert curve's recursion). One quadrant's
        // placements at a time: at zoom 13 of 1,000,000 organizations the whole zoom's took 60 MB at once.
        let level = min(zoom, 4), parts = 1 << level, tilesPerPart = size / parts
        let quadrants = (0..<parts * parts).map { (x: $0 % parts, y: $0 / parts) }
            .sorted { TileAddress(unchecked: level, $0.x, $0.y).pmtilesID < TileAddress(unchecked: level, $1.x, $1.y).pmtilesID }
        var entries: [TileEntry] = []
        var starts: [Int] = []
        for quadrant in quadrants {
            let columns = quadrant.x * tilesPerPart...(quadrant.x + 1) * tilesPerPart - 1
            let rowRange = quadrant.y * tilesPerPart...(quadrant.y + 1) * tilesPerPart - 1
            entries.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            try forEachTile(zoom: zoom, columns: columns, rows: rowRange, attributes: attributes, threads: threads,
                            encoding: encoding, entries: &entries, starts: &starts, body)
        }
    }

    /// The tiles of `columns` × `rows` of zoom `zoom`, as ``forEachTile(zoom:attributes:threads:encoding:_:)``
    /// gives them, with `entries` and `starts` as room to work in.
    private func forEachTile(zoom: Int, columns: ClosedRange<Int>, rows rowRange: ClosedRange<Int>, attributes: some TileAttributes,
                             threads: Int, encoding: TileEncoding, entries: inout [TileEntry], starts: inout [Int],
                             _ body: (TileAddress, [UInt8]) throws -> Void) throws {
        let scale = Double(1 << zoom), margin = grid.margin
        var lastTile = (x: -1, y: -1, id: UInt64(0))
        // Every item that may lie in these tiles or their buffers (twice the margin: beyond any rounding).
        let minY = max(0, (Double(rowRange.lowerBound) - 2 * margin) / scale)
        let maxY = min(1, (Double(rowRange.upperBound + 1) + 2 * margin) / scale)
        for shift in -1...1 {
            let minX = max(0, (Double(columns.lowerBound) - 2 * margin) / scale - Double(shift))
            let maxX = min(1, (Double(columns.upperBound + 1) + 2 * margin) / scale - Double(shift))
            guard minX <= maxX else { continue }
            index.forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: zoom) { item in
                let py = item.mercatorY * scale
                let low = max(rowRange.lowerBound, Int((py - margin).rounded(.down)))
                let high = min(rowRange.upperBound, Int((py + margin).rounded(.down)))
                guard low <= high else { return }
                let rows = low...high
                let position = item.mercatorX + Double(shift)
                let px = position * scale
                let left = max(columns.lowerBound, Int((px - margin).rounded(.down)))
                let right = min(columns.upperBound, Int((px + margin).rounded(.down)))
                guard left <= right else { return }
                for tx in left...right {
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
        // Where each tile's placements start in `entries` (and where the last one ends).
        for position in entries.indices where position == 0 || entries[position].id != entries[position - 1].id {
            starts.append(position)
        }
        starts.append(entries.count)
        let tileCount = starts.count - 1, starts = starts
        // Batches of tiles encoded (and compressed) on `threads` threads, then given to `body` in order on
        // this one: the tiles and their order do not depend on the threads. Encoding and gzip are nearly all
        // of an archive's time (perf, 200,000 organizations: gzip half of it, encoding a third).
        var first = 0
        while first < tileCount {
            var last = first + 1
            while last < tileCount && last - first < 4096 && starts[last] - starts[first] < 1 << 16 { last += 1 }
            let batchStart = first
            let results = entries.withUnsafeBufferPointer { entries in
                Parallel.map(last - first, threads: threads, minimumChunk: 1) { range in
                    Result { () throws -> [[UInt8]] in
                        let compressor = encoding == .gzip ? try Gzip.Compressor() : nil
                        var tiles: [[UInt8]] = []
                        tiles.reserveCapacity(range.count)
                        var placements: [Placement] = []
                        for tile in range {
                            placements.removeAll(keepingCapacity: true)
                            for position in starts[batchStart + tile]..<starts[batchStart + tile + 1] {
                                placements.append(entries[position].placement)
                            }
                            let mvt = try encode(placements, attributes: attributes)
                            tiles.append(try compressor.map { try $0.compress(mvt) } ?? mvt)
                        }
                        return tiles
                    }
                }
            }
            var tile = first
            for result in results {
                for bytes in try result.get() {
                    let entry = entries[starts[tile]]
                    try body(TileAddress(unchecked: zoom, Int(entry.x), Int(entry.y)), bytes)
                    tile += 1
                }
            }
            first = last
        }
    }

    /// True when the placement at `position` of `placements` (sorted by node, then shift) carries its
    /// node's id: the one copy of the node inside the tile's columns, or its first copy when none is
    /// (copies of one node differ only in their shift by a world, so they share a row).
    static func carriesID(_ placements: [Placement], at position: Int, extent: Int) -> Bool {
        let node = placements[position].node
        var first = position
        while first > 0 && placements[first - 1].node == node { first -= 1 }
        var last = position
        while last + 1 < placements.count && placements[last + 1].node == node { last += 1 }
        if first == last { return true }
        let inside = (first...last).first { placements[$0].x >= 0 && Int(placements[$0].x) < extent }
        return position == (inside ?? first)
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
        for (position, placement) in placements.enumerated() {
            let node = Int(placement.node)
            let id = Self.carriesID(placements, at: position, extent: grid.extent) ? UInt64(node) : nil
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
                clusters.addPoint(id: id, x: Int(placement.x), y: Int(placement.y), properties: properties)
            case .organization:
                properties.append(TileProperty("kind", "organization"))
                if let id = item.organizationIDs.first, let own = try attributes.organization(id) { properties += own }
                organizations.addPoint(id: id, x: Int(placement.x), y: Int(placement.y), properties: properties)
            case .colocatedGroup:
                properties.append(TileProperty("kind", "colocated"))
                properties.append(TileProperty("id", "g\(node)"))
                properties.append(TileProperty("count", .unsigned(count)))
                properties.append(TileProperty("clubs", .unsigned(count - museums)))
                properties.append(TileProperty("museums", .unsigned(museums)))
                properties += try attributes.group(item.organizationIDs)
                organizations.addPoint(id: id, x: Int(placement.x), y: Int(placement.y), properties: properties)
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
