/// Where a tile set goes: tiles are given zoom by zoom in PMTiles order, then the metadata, then
/// the archive is published whole (or abandoned, leaving what was at its name as it was).
public protocol TileArchiveWriter: AnyObject {
    /// Adds one tile's MVT (never empty).
    func add(_ tile: TileAddress, _ mvt: [UInt8]) throws
    /// How the archive stores a tile's MVT: what ``add(_:stored:)`` expects, which callers may do on
    /// other threads (``ClusterTiles/forEachTile(zoom:attributes:threads:encoding:_:)``).
    var tileEncoding: TileEncoding { get }
    /// Adds one tile as the archive stores it: its MVT with ``tileEncoding`` applied. The same archive
    /// as ``add(_:_:)`` of the MVT.
    func add(_ tile: TileAddress, stored: [UInt8]) throws
    /// Writes the metadata and publishes the archive at its name.
    func finish(_ metadata: TileSetMetadata) throws
    /// Stops: nothing is published, temporary files are removed.
    func abandon()
}

/// How a tile's MVT is stored: as it is (a folder of .mvt files), or gzip-compressed (PMTiles, MBTiles)
/// in one gzip member.
public enum TileEncoding: Sendable, Equatable {
    /// The MVT as it is.
    case identity
    /// The MVT in one gzip member (`Gzip`: hubgeo's fixed-Huffman deflate up to 16 KiB, zlib at its default level above).
    case gzip

    /// The stored form of `mvt`.
    public func apply(_ mvt: [UInt8]) throws -> [UInt8] {
        switch self {
        case .identity: return mvt
        case .gzip: return try Gzip.compress(mvt)
        }
    }
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
