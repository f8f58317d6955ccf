/// Where a tile set goes: tiles are given zoom by zoom in PMTiles order, then the metadata, then
/// the archive is published whole (or abandoned, leaving what was at its name as it was).
public protocol TileArchiveWriter: AnyObject {
    /// Adds one tile's MVT (never empty).
    func add(_ tile: TileAddress, _ mvt: [UInt8]) throws
    /// Writes the metadata and publishes the archive at its name.
    func finish(_ metadata: TileSetMetadata) throws
    /// Stops: nothing is published, temporary files are removed.
    func abandon()
}

/// An archive that could not be written, in words.
public struct TileArchiveError: Error, CustomStringConvertible {
    /// The error in words.
    public var description: String

    /// An error that says `description`.
    public init(_ description: String) {
        self.description = description
    }

    static func system(_ action: String, path: String) -> TileArchiveError {
        TileArchiveError("cannot \(action) \(path): \(String(cString: strerror(errno)))")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
