import Foundation

/// A summary of a hubgeo database.
public struct StoreStatistics: Sendable, Codable {
    public var databasePath: String
    public var clubs: Int
    public var museums: Int
    public var clubsWithLevel2: Int
    /// South-west and north-east corners of all organizations, nil when there are none.
    public var southWest: GeoPoint?
    public var northEast: GeoPoint?
    public var source: String?
    public var importedAt: Date?
}
