#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The projection of the cluster index: longitude and latitude in degrees to Web Mercator
/// coordinates in the unit square, x growing east from the antimeridian (-180° is 0, 180° is 1)
/// and y growing south from the top of the map (85.0511° N is 0, 85.0511° S is 1), as tiled
/// web maps and supercluster use it. Latitudes beyond ±85.0511° (up to the poles) are clamped to
/// the edge of the map.
enum WebMercator {
    /// x of a longitude in [-180, 180].
    @inline(__always)
    static func x(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// y of a latitude in [-90, 90], clamped to [0, 1].
    @inline(__always)
    static func y(latitude: Double) -> Double {
        let sine = sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    /// The longitude of an x.
    @inline(__always)
    static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// The latitude of a y.
    @inline(__always)
    static func latitude(y: Double) -> Double {
        let radians = (180 - y * 360) * Double.pi / 180
        return 360 * atan(exp(radians)) / Double.pi - 90
    }
}
