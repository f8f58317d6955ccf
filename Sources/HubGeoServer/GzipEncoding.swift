import Foundation
import HubGeo

/// gzip content coding of the server's answers, for clients that accept it, with the one gzip
/// encoder of hubgeo (``Gzip``, HubGeoTiles): a served tile is byte for byte the tile that
/// `hubgeo tiles` stores in an archive (``TileEncoding/gzip``).
enum GzipEncoding {
    /// Shorter text goes out as it is: a few hundred bytes gain little and cost a deflate stream.
    /// Tiles are compressed whatever their size, as the archives store them.
    static let minimumSize = 1_024

    /// True when `Accept-Encoding` accepts gzip: listed (or `*`) without `q=0`.
    static func isAccepted(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzip: Bool?
        var wildcard: Bool?
        for entry in acceptEncoding.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            let refused = parts.dropFirst().contains { $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) == 0 }
            if name == "gzip" || name == "x-gzip" { gzip = !refused } else if name == "*" { wildcard = !refused }
        }
        return gzip ?? wildcard ?? false
    }

    /// `body` as `format` compresses it, or nil when it is too short to be worth it. A tile as the
    /// archives store it; text up to 16 KiB as one block of fixed Huffman codes (``Gzip``: a tenth
    /// of zlib's time), longer text by zlib at level 2 of 9: the answers of the benchmark's cluster
    /// views shrink to 24% of their size there, against 22% at zlib's default level 6, which takes
    /// about ten times as long.
    static func compress(_ body: [UInt8], as format: AnswerFormat) throws -> [UInt8]? {
        switch format {
        case .vectorTile: return try TileEncoding.gzip.apply(body)
        case .geoJSON, .json, .html: return body.count < minimumSize ? nil : try Gzip.compress(body, level: 2)
        }
    }
}
