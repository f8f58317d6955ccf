/// The kinds of tile archive hubgeo writes.
public enum TileArchiveFormat: String, Sendable, CaseIterable {
    /// One PMTiles v3 file, read over HTTP range requests from any static host.
    case pmtiles
    /// One MBTiles 1.3 SQLite file (GDAL, QGIS, tile servers).
    case mbtiles
    /// A folder of z/x/y.mvt files.
    case folder

    /// The format a name asks for: by its extension; a name without one, or ending in `/`, is a folder.
    public static func infer(from path: String) -> TileArchiveFormat? {
        if path.hasSuffix("/") { return .folder }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .folder }
        switch name[name.index(after: dot)...].lowercased() {
        case "pmtiles": return .pmtiles
        case "mbtiles": return .mbtiles
        default: return nil
        }
    }
}
