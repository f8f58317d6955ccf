/// The parameters of a cluster index: how close items must be, on screen, to be clustered, and
/// how far the zooms go.
public struct ClusterOptions: Sendable, Equatable {
    /// The cluster radius in pixels of a tile of `extent` pixels: at zoom z, items closer than
    /// radius / (extent · 2^z) in Web Mercator units (the world is 1 wide) are clustered.
    public var radius: Double
    /// The tile size the radius is measured against; 256 is the CSS-pixel tile of Leaflet and
    /// OpenStreetMap's raster tiles, so the radius is in screen pixels of the page.
    public var extent: Double
    /// The highest zoom that is ever clustered is one below this: from this zoom on every
    /// location stands alone even if a closer pair could be split further.
    public var maximumZoom: Int
    /// The run of items a kd-tree leaf scans (KDBush's node size).
    public var nodeSize: Int

    /// Radius 60 on 256-pixel tiles, zooms up to 24, kd leaves of 64.
    public init(radius: Double = 60, extent: Double = 256, maximumZoom: Int = 24, nodeSize: Int = 64) {
        self.radius = radius
        self.extent = extent
        self.maximumZoom = maximumZoom
        self.nodeSize = nodeSize
    }

    /// The greatest `maximumZoom`: zooms are stored in a byte, and 2^30 tiles a side is far
    /// beyond any map.
    public static let zoomLimit = 30

    func validate() throws(ClusterIndexError) {
        guard radius.isFinite, radius > 0 else { throw .invalidOption("radius \(radius) must be a positive number") }
        guard extent.isFinite, extent > 0 else { throw .invalidOption("extent \(extent) must be a positive number") }
        guard (0...Self.zoomLimit).contains(maximumZoom) else {
            throw .invalidOption("maximumZoom \(maximumZoom) must be in 0...\(Self.zoomLimit)")
        }
        guard (1...4096).contains(nodeSize) else { throw .invalidOption("nodeSize \(nodeSize) must be in 1...4096") }
    }

    /// The clustering distance at `zoom`, in Web Mercator units (supercluster's
    /// radius / (extent · 2^zoom)).
    @inline(__always)
    func distance(atZoom zoom: Int) -> Double {
        radius / (extent * Double(sign: .plus, exponent: zoom, significand: 1))
    }
}
