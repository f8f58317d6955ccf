import HubGeoModel


/// An organization found by a query, with its geodesic distance from the query point when
/// the query had one.
public struct PlaceMatch: Sendable {
    /// The organization found.
    public var organization: Organization
    /// Ellipsoidal (WGS84) distance in metres.
    public var distanceMeters: Double?
    /// The localized town and country, when asked for a language and known (cached).
    public var localized: LocalizedPlace?

    /// A match of `organization`, at `distanceMeters` from a query's centre, with its `localized` place.
    public init(organization: Organization, distanceMeters: Double? = nil, localized: LocalizedPlace? = nil) {
        self.organization = organization
        self.distanceMeters = distanceMeters
        self.localized = localized
    }
}
