/// A longitude/latitude rectangle in degrees, as used by a spatial index.
///
/// It never crosses the antimeridian: `minLongitude <= maxLongitude`, both in
/// [-180, 180], and `minLatitude <= maxLatitude`, both in [-90, 90].
/// Edges are inclusive.
package struct LonLatBox: Hashable, Sendable {
    package let minLongitude: Double
    package let minLatitude: Double
    package let maxLongitude: Double
    package let maxLatitude: Double

    /// The whole world, [-180, 180] × [-90, 90].
    package static let wholeWorld = LonLatBox(
        unchecked: -180, minLatitude: -90, maxLongitude: 180, maxLatitude: 90)

    /// Creates a box, rejecting non-finite or out-of-range edges, a south edge
    /// north of the north edge, and a west edge east of the east edge (use
    /// ``SearchBoxes/splitting(west:south:east:north:)`` for those).
    package init(
        minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double
    ) throws(BoundingBoxError) {
        try Self.validate(west: minLongitude, south: minLatitude, east: maxLongitude, north: maxLatitude)
        guard minLongitude <= maxLongitude else {
            throw .crossesAntimeridian(west: minLongitude, east: maxLongitude)
        }
        self.init(
            unchecked: minLongitude, minLatitude: minLatitude,
            maxLongitude: maxLongitude, maxLatitude: maxLatitude)
    }

    /// Creates a box whose edges the caller has already validated.
    init(unchecked minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        assert(minLongitude <= maxLongitude && minLatitude <= maxLatitude)
        self.minLongitude = minLongitude
        self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude
        self.maxLatitude = maxLatitude
    }

    /// True when the point lies inside the box or on its edges.
    package func contains(_ point: GeoPoint) -> Bool {
        (minLatitude...maxLatitude).contains(point.latitude)
            && (minLongitude...maxLongitude).contains(point.longitude)
    }

    /// Checks that all edges are finite and in range and that south <= north.
    static func validate(west: Double, south: Double, east: Double, north: Double) throws(BoundingBoxError) {
        guard west.isFinite, south.isFinite, east.isFinite, north.isFinite else { throw .notFinite }
        for latitude in [south, north] where !(-90...90).contains(latitude) {
            throw .latitudeOutOfRange(latitude)
        }
        for longitude in [west, east] where !(-180...180).contains(longitude) {
            throw .longitudeOutOfRange(longitude)
        }
        guard south <= north else { throw .southNorthOfNorth(south: south, north: north) }
    }
}
