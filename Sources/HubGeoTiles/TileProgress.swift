import Foundation

/// Where an archive of tiles stands, for a progress display.
public struct TileProgress: Sendable {
    /// The zoom being written.
    public var zoom: Int
    /// The last zoom to write.
    public var maximumZoom: Int
    /// Tiles written so far.
    public var tiles: Int
    /// The share of the work done (0...1), estimated from the items of each zoom.
    public var fraction: Double
    /// Seconds since the start.
    public var elapsed: TimeInterval

    /// The time left, estimated from the share done so far.
    public var estimatedRemaining: TimeInterval? {
        fraction > 0.02 ? elapsed / fraction * (1 - fraction) : nil
    }
}
