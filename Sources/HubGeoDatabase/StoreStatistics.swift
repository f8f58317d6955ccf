import Foundation
import HubGeoModel


/// A summary of a hubgeo database.
public struct StoreStatistics: Sendable, Codable {
    /// The database file; nil where it is not to be shown (`hubgeo serve`'s `/api/stats`).
    public var databasePath: String?
    /// The number of clubs.
    public var clubs: Int
    /// The number of museums.
    public var museums: Int
    /// The number of clubs with a Level 2 file merged.
    public var clubsWithLevel2: Int
    /// South-west and north-east corners of all organizations, nil when there are none.
    public var southWest: GeoPoint?
    /// The north-east corner of all organizations (see ``southWest``).
    public var northEast: GeoPoint?
    /// The root the last import read.
    public var source: String?
    /// When the last import ran; in JSON an RFC 3339 UTC string.
    public var importedAt: Date?

    private enum CodingKeys: String, CodingKey {
        case databasePath, clubs, museums, clubsWithLevel2, southWest, northEast, source, importedAt
    }

    /// Statistics with these values.
    public init(databasePath: String?, clubs: Int, museums: Int, clubsWithLevel2: Int, southWest: GeoPoint? = nil,
                northEast: GeoPoint? = nil, source: String? = nil, importedAt: Date? = nil) {
        self.databasePath = databasePath
        self.clubs = clubs
        self.museums = museums
        self.clubsWithLevel2 = clubsWithLevel2
        self.southWest = southWest
        self.northEast = northEast
        self.source = source
        self.importedAt = importedAt
    }

    /// Decodes statistics as ``encode(to:)`` writes them.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        databasePath = try container.decodeIfPresent(String.self, forKey: .databasePath)
        clubs = try container.decode(Int.self, forKey: .clubs)
        museums = try container.decode(Int.self, forKey: .museums)
        clubsWithLevel2 = try container.decode(Int.self, forKey: .clubsWithLevel2)
        southWest = try container.decodeIfPresent(GeoPoint.self, forKey: .southWest)
        northEast = try container.decodeIfPresent(GeoPoint.self, forKey: .northEast)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        importedAt = try container.decodeIfPresent(String.self, forKey: .importedAt).flatMap(RFC3339.date)
    }

    /// Encodes the statistics, `importedAt` as an RFC 3339 UTC string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(databasePath, forKey: .databasePath)
        try container.encode(clubs, forKey: .clubs)
        try container.encode(museums, forKey: .museums)
        try container.encode(clubsWithLevel2, forKey: .clubsWithLevel2)
        try container.encodeIfPresent(southWest, forKey: .southWest)
        try container.encodeIfPresent(northEast, forKey: .northEast)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(importedAt.map(RFC3339.string), forKey: .importedAt)
    }
}
