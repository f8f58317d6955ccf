import Foundation

/// Why a bounding box was rejected.
package enum BoundingBoxError: Error, Equatable, Sendable, LocalizedError {
    /// A coordinate was NaN or infinite.
    case notFinite
    /// A latitude outside [-90, 90].
    case latitudeOutOfRange(Double)
    /// A longitude outside [-180, 180].
    case longitudeOutOfRange(Double)
    /// The southern edge lies north of the northern edge.
    case southNorthOfNorth(south: Double, north: Double)
    /// A ``LonLatBox`` whose western edge lies east of its eastern edge;
    /// such a box crosses the antimeridian and must be split.
    case crossesAntimeridian(west: Double, east: Double)

    package var errorDescription: String? {
        switch self {
        case .notFinite:
            "Bounding box coordinates must be finite numbers."
        case .latitudeOutOfRange(let latitude):
            "Latitude \(latitude) is outside [-90, 90]."
        case .longitudeOutOfRange(let longitude):
            "Longitude \(longitude) is outside [-180, 180]."
        case .southNorthOfNorth(let south, let north):
            "South edge \(south) lies north of north edge \(north)."
        case .crossesAntimeridian(let west, let east):
            "West edge \(west) lies east of east edge \(east); "
                + "split boxes that cross the antimeridian with SearchBoxes.splitting."
        }
    }
}
