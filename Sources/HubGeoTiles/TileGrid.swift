/// Where points fall in tiles: each tile is `extent` units a side with a `buffer` of units
/// around it, so that a marker near an edge is in the tiles on both sides (a renderer draws it
/// whole); a point belongs to exactly one tile (see ``owns(x:y:in:)``), which counts it.
///
/// Both ways of making tiles (one tile on request, every tile of a zoom in one pass) place points
/// with `local(_:tile:scale:)` and keep them with `includes(x:y:)`, so they make the same tiles.
/// Longitudes wrap: near the antimeridian a tile's buffer holds the points of the other side of
/// the map (shifted by a world); latitudes do not (beyond ±85.0511° points lie on the top or bottom edge).
public struct TileGrid: Sendable, Equatable {
    /// Units per tile side (4096, the MVT default).
    public var extent: Int
    /// Units beyond each edge whose points a tile also holds.
    public var buffer: Int

    /// Extent 4096 and a buffer of 64 units (4 pixels of a 256-pixel tile, a little less than
    /// tippecanoe's default of 5): enough for renderers to place a marker that straddles an edge.
    public init(extent: Int = 4096, buffer: Int = 64) {
        self.extent = extent
        self.buffer = buffer
    }

    /// The position in tile units of a Web Mercator coordinate (0...1, or shifted by a world)
    /// in tile `tile` of a zoom with `scale` (2^z) tiles a side.
    @inline(__always)
    func local(_ position: Double, tile: Int, scale: Double) -> Int {
        Int(((position * scale - Double(tile)) * Double(extent)).rounded())
    }

    /// True when a point at (x, y) in tile units is in the tile or its buffer.
    @inline(__always)
    func includes(x: Int, y: Int) -> Bool {
        x >= -buffer && x <= extent + buffer && y >= -buffer && y <= extent + buffer
    }

    /// True when a point at (x, y) in tile units of `tile` belongs to that tile: inside it, left
    /// and top edges included; on the bottom edge of the bottom row too (the south edge of the map,
    /// where the points beyond 85.0511° S lie). The right edge of the last column is the left edge
    /// of the first (the antimeridian), which owns it.
    public func owns(x: Int, y: Int, in tile: TileAddress) -> Bool {
        x >= 0 && x < extent && y >= 0 && (y < extent || (y == extent && tile.y == tile.size - 1))
    }

    /// The margin, in tiles, of the boxes searched for a tile's points: the buffer and a unit
    /// more, beyond any rounding.
    var margin: Double { Double(buffer + 1) / Double(extent) }
}
