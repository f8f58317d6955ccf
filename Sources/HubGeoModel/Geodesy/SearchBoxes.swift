import Foundation

/// Turns a radius or bounding-box query into spatial-index boxes
/// (``LonLatBox``es) that never cross the antimeridian.
package enum SearchBoxes {
    /// Relative safety margin added to a search radius before it becomes an angle.
    package static let relativeMargin = 1e-9
    /// Absolute safety margin, in metres, added to a search radius.
    package static let absoluteMarginMeters = 2.0

    /// Boxes whose union contains every point whose geodesic (WGS84 ellipsoid)
    /// distance from `center` is at most `radiusMeters`.
    ///
    /// The radius, plus a small margin, becomes an angle on a unit sphere by
    /// dividing by ``WGS84/smallestRadiusOfCurvature``; a curve on the ellipsoid
    /// is never shorter than that radius times its image on the sphere, so the
    /// spherical cap bounds the ellipsoidal circle. A cap containing a pole spans
    /// all longitudes up to that pole; a box crossing ±180° is split in two.
    /// A radius of half the Earth's circumference or more gives
    /// ``LonLatBox/wholeWorld``.
    ///
    /// - Returns: one or two boxes, or none when `center` is not valid or
    ///   `radiusMeters` is negative or NaN.
    package static func covering(center: GeoPoint, radiusMeters: Double) -> [LonLatBox] {
        guard center.isValid, radiusMeters >= 0 else { return [] }
        let radius = radiusMeters * (1 + relativeMargin) + absoluteMarginMeters
        let angularRadius = radius / WGS84.smallestRadiusOfCurvature  // radians
        guard angularRadius < .pi else { return [.wholeWorld] }

        let angularRadiusDegrees = angularRadius * 180 / .pi
        let south = max(-90, center.latitude - angularRadiusDegrees)
        let north = min(90, center.latitude + angularRadiusDegrees)

        let centerLatitude = center.latitude * .pi / 180
        let longitudeSine = sin(angularRadius) / cos(centerLatitude)
        let containsPole = abs(center.latitude) + angularRadiusDegrees >= 90
        guard !containsPole, longitudeSine < 1 else {
            return [LonLatBox(unchecked: -180, minLatitude: south, maxLongitude: 180, maxLatitude: north)]
        }

        let halfWidth = asin(longitudeSine) * 180 / .pi  // < 90°
        let west = center.longitude - halfWidth
        let east = center.longitude + halfWidth
        if west < -180 {
            return [
                LonLatBox(unchecked: west + 360, minLatitude: south, maxLongitude: 180, maxLatitude: north),
                LonLatBox(unchecked: -180, minLatitude: south, maxLongitude: east, maxLatitude: north),
            ]
        }
        if east > 180 {
            return [
                LonLatBox(unchecked: west, minLatitude: south, maxLongitude: 180, maxLatitude: north),
                LonLatBox(unchecked: -180, minLatitude: south, maxLongitude: east - 360, maxLatitude: north),
            ]
        }
        return [LonLatBox(unchecked: west, minLatitude: south, maxLongitude: east, maxLatitude: north)]
    }

    /// The boxes for a user's bounding box, in degrees.
    ///
    /// When `west > east` the box crosses the antimeridian and becomes two boxes,
    /// [west, 180] and [-180, east].
    ///
    /// - Throws: ``BoundingBoxError`` when an edge is not finite or out of range,
    ///   or `south > north`.
    package static func splitting(
        west: Double, south: Double, east: Double, north: Double
    ) throws(BoundingBoxError) -> [LonLatBox] {
        try LonLatBox.validate(west: west, south: south, east: east, north: north)
        guard west > east else {
            return [LonLatBox(unchecked: west, minLatitude: south, maxLongitude: east, maxLatitude: north)]
        }
        return [
            LonLatBox(unchecked: west, minLatitude: south, maxLongitude: 180, maxLatitude: north),
            LonLatBox(unchecked: -180, minLatitude: south, maxLongitude: east, maxLatitude: north),
        ]
    }
}
