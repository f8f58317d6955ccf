/// Constants of the WGS84 ellipsoid.
package enum WGS84 {
    /// Equatorial radius a, in metres.
    package static let semiMajorAxis = 6_378_137.0
    /// Flattening f = (a - b) / a.
    package static let flattening = 1 / 298.257_223_563
    /// Polar radius b = a (1 - f), in metres.
    package static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// The smallest radius of curvature anywhere on the ellipsoid, in metres:
    /// the meridional radius at the equator, b² / a (≈ 6,335,439 m).
    ///
    /// No curve on the ellipsoid is shorter than this radius times the length of
    /// its image on a unit sphere with the same latitudes and longitudes, which
    /// makes it the conservative radius for spherical bounds.
    package static let smallestRadiusOfCurvature = semiMinorAxis * semiMinorAxis / semiMajorAxis
}
