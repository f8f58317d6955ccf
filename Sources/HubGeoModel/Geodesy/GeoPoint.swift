/// A position on the WGS84 ellipsoid, in degrees.
///
/// `latitude` is geodetic latitude in [-90, 90] (positive north);
/// `longitude` is in [-180, 180] (positive east). Both ends of the longitude
/// range name the antimeridian.
public struct GeoPoint: Hashable, Sendable, Codable {
    /// Geodetic latitude in degrees, [-90, 90].
    public var latitude: Double
    /// Longitude in degrees, [-180, 180].
    public var longitude: Double

    /// A point at `latitude` and `longitude`, in degrees (WGS 84).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both coordinates are finite and within their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
