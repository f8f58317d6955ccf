/// What an archive of tiles holds.
public struct TileSetSummary: Sendable {
    /// The number of organizations in the tiles.
    public var organizations: Int
    /// The number of tiles written (empty tiles are not).
    public var tiles: Int
    /// The last zoom written.
    public var maximumZoom: Int
    /// The metadata written into the archive.
    public var metadata: TileSetMetadata
}
