import HubGeoModel

/// Which organizations a query picks (before its filter and paging).
public enum OrganizationSelection: Sendable, Equatable {
    /// Every organization.
    case all
    /// Within a geodesic radius of a point (as `near(_:radiusMeters:filter:)`).
    case near(GeoPoint, radiusMeters: Double)
    /// Inside a box (as `within(west:south:east:north:filter:)`); west > east crosses the antimeridian.
    case within(west: Double, south: Double, east: Double, north: Double)
    /// Whose names or town contain the text (as `search(_:filter:)`).
    case search(String)
}
