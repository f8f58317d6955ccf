import Foundation
import HubGeo

/// The tiles' geometry computed independently of HubGeoTiles, for checking it.
package enum TileReference {
    /// The tile that owns a point at (longitude, latitude) at zoom `z`, by TileGrid's rule.
    package static func owner(longitude: Double, latitude: Double, zoom z: Int) -> TileAddress {
        let n = 1 << z
        let sine = sin(latitude * .pi / 180)
        let y = min(1, max(0, 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi))
        let px = Int((( longitude / 360 + 0.5) * Double(n) * 4096).rounded())
        let py = Int((y * Double(n) * 4096).rounded())
        return TileAddress(z: z, x: (px / 4096) % n, y: min(py / 4096, n - 1))!
    }
}
