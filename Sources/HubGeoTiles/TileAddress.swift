/// One tile of the Web Mercator tile pyramid (XYZ scheme: x grows east from the antimeridian, y
/// south from 85.0511° N; zoom z has 2^z × 2^z tiles).
public struct TileAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The zoom.
    public let z: Int
    /// The column, from the west.
    public let x: Int
    /// The row, from the north (XYZ).
    public let y: Int

    /// The highest zoom a tile address takes (the cluster index's zoom limit; PMTiles ids reach 26).
    public static let maximumZoom = 26

    /// The tile, or nil when z is outside 0...``maximumZoom`` or x or y outside 0..<2^z.
    public init?(z: Int, x: Int, y: Int) {
        guard (0...Self.maximumZoom).contains(z) else { return nil }
        let size = 1 << z
        guard (0..<size).contains(x), (0..<size).contains(y) else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    init(unchecked z: Int, _ x: Int, _ y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Tiles per side at this zoom.
    public var size: Int { 1 << z }

    /// The row in the TMS scheme of MBTiles (y counted from the south).
    public var tmsY: Int { size - 1 - y }

    /// The PMTiles v3 tile id: the tiles of lower zooms first, then the position on the Hilbert
    /// curve of this zoom. Tiles near each other on the map are near each other in the order.
    public var pmtilesID: UInt64 {
        var base: UInt64 = 0
        for level in 0..<z { base += UInt64(1) << (2 * UInt64(level)) }
        let n = UInt64(size)
        var px = UInt64(x), py = UInt64(y)
        var d: UInt64 = 0
        var s = n / 2
        while s > 0 {
            let rx: UInt64 = px & s > 0 ? 1 : 0
            let ry: UInt64 = py & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant (in the low bits, which alone matter from here on).
            if ry == 0 {
                if rx == 1 {
                    px = n &- 1 &- px
                    py = n &- 1 &- py
                }
                swap(&px, &py)
            }
            s /= 2
        }
        return base + d
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Orders by PMTiles tile id.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.pmtilesID < rhs.pmtilesID }
}
