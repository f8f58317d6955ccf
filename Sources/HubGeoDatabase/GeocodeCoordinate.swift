import HubGeoModel


/// A cache key's point: coordinates rounded to 6 decimals (about 0.1 m), so that the same
/// stored coordinates always meet the same row while any real move misses it.
package struct GeocodeCoordinate: Hashable, Sendable, Comparable {
    package var latitudeE6: Int64
    package var longitudeE6: Int64

    package init(_ point: GeoPoint) {
        latitudeE6 = Int64((point.latitude * 1e6).rounded())
        longitudeE6 = Int64((point.longitude * 1e6).rounded())
    }

    /// The rounded point, as sent to the server.
    package var point: GeoPoint { GeoPoint(latitude: Double(latitudeE6) / 1e6, longitude: Double(longitudeE6) / 1e6) }

    package static func < (a: Self, b: Self) -> Bool {
        (a.latitudeE6, a.longitudeE6) < (b.latitudeE6, b.longitudeE6)
    }
}
