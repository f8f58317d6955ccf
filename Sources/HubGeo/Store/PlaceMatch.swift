/// An organization found by a query, with its geodesic distance from the query point when
/// the query had one.
public struct PlaceMatch: Sendable {
    public var organization: Organization
    /// Ellipsoidal (WGS84) distance in metres.
    public var distanceMeters: Double?

    public init(organization: Organization, distanceMeters: Double? = nil) {
        self.organization = organization
        self.distanceMeters = distanceMeters
    }
}
