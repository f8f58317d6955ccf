import Foundation
import GRDB

/// A cache key's point: coordinates rounded to 6 decimals (about 0.1 m), so that the same
/// stored coordinates always meet the same row while any real move misses it.
public struct GeocodeCoordinate: Hashable, Sendable, Comparable {
    public var latitudeE6: Int64
    public var longitudeE6: Int64

    public init(_ point: GeoPoint) {
        latitudeE6 = Int64((point.latitude * 1e6).rounded())
        longitudeE6 = Int64((point.longitude * 1e6).rounded())
    }

    /// The rounded point, as sent to the server.
    public var point: GeoPoint { GeoPoint(latitude: Double(latitudeE6) / 1e6, longitude: Double(longitudeE6) / 1e6) }

    public static func < (a: Self, b: Self) -> Bool {
        (a.latitudeE6, a.longitudeE6) < (b.latitudeE6, b.longitudeE6)
    }
}

/// One cached answer for a point in a language from one endpoint at one zoom.
public struct GeocodeCacheEntry: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// Asked in this language.
        case request
        /// Derived without a request from another language's answer for the same point
        /// (see ``Localizer``); `rawResponse` is that answer.
        case derived
    }

    public var coordinate: GeocodeCoordinate
    public var language: String
    public var endpoint: String
    public var zoom: Int
    public var status: ReverseGeocodeResult.Status
    public var town: String?
    public var townKey: String?
    public var country: String?
    public var countryCode: String?
    public var source: Source
    public var rawResponse: String
    public var fetchedAt: Date

    public init(coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int,
                status: ReverseGeocodeResult.Status, town: String?, townKey: String?, country: String?,
                countryCode: String?, source: Source, rawResponse: String, fetchedAt: Date) {
        self.coordinate = coordinate
        self.language = language
        self.endpoint = endpoint
        self.zoom = zoom
        self.status = status
        self.town = town
        self.townKey = townKey
        self.country = country
        self.countryCode = countryCode
        self.source = source
        self.rawResponse = rawResponse
        self.fetchedAt = fetchedAt
    }

    /// The localized place this entry gives (town and country nil for a no-result).
    public var localizedPlace: LocalizedPlace {
        LocalizedPlace(language: language, town: town, country: country)
    }
}

/// The reverse geocoding cache, in the hubgeo database (tables `geocode_cache` and `geocode_country`).
extension OrganizationStore {
    /// The cached answer for a point and language from `endpoint` at `zoom`, if any.
    public func cachedGeocode(_ coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int) throws -> GeocodeCacheEntry? {
        try pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT * FROM geocode_cache
                WHERE latitude_e6 = ? AND longitude_e6 = ? AND language = ? AND endpoint = ? AND zoom = ?
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, language, endpoint, zoom]).map(Self.entry)
        }
    }

    /// All cached answers for a point from `endpoint` at `zoom`, in any language.
    public func cachedGeocodes(_ coordinate: GeocodeCoordinate, endpoint: String, zoom: Int) throws -> [GeocodeCacheEntry] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM geocode_cache
                WHERE latitude_e6 = ? AND longitude_e6 = ? AND endpoint = ? AND zoom = ? ORDER BY language
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, endpoint, zoom]).map(Self.entry)
        }
    }

    /// Stores one answer in one transaction (so an interrupted run never leaves half a row), and
    /// remembers its country name for the country code and language.
    public func saveGeocode(_ entry: GeocodeCacheEntry) throws {
        try pool.write { db in
            let time = ISO8601DateFormatter().string(from: entry.fetchedAt)
            try db.execute(sql: """
                INSERT OR REPLACE INTO geocode_cache (latitude_e6, longitude_e6, language, endpoint, zoom, status, town,
                    town_key, country, country_code, source, raw_response, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [entry.coordinate.latitudeE6, entry.coordinate.longitudeE6, entry.language, entry.endpoint,
                                 entry.zoom, entry.status.rawValue, entry.town, entry.townKey, entry.country,
                                 entry.countryCode, entry.source.rawValue, entry.rawResponse, time])
            if entry.source == .request, let code = entry.countryCode, let country = entry.country {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO geocode_country (endpoint, country_code, language, country, learned_at)
                    VALUES (?, ?, ?, ?, ?)
                    """, arguments: [entry.endpoint, code, entry.language, country, time])
            }
        }
    }

    /// The country name for a country code in a language, as `endpoint` gave it in an earlier answer.
    public func cachedCountryName(code: String, language: String, endpoint: String) throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT country FROM geocode_country WHERE endpoint = ? AND country_code = ? AND language = ?",
                                arguments: [endpoint, code, language])
        }
    }

    /// The number of cached answers.
    public func geocodeCacheCount() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM geocode_cache") ?? 0 }
    }

    /// The distinct (rounded) coordinates of the organizations, with how many organizations share each.
    public func distinctCoordinates(type: OrganizationType? = nil) throws -> [(coordinate: GeocodeCoordinate, organizations: Int)] {
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT latitude, longitude FROM organization WHERE ?1 IS NULL OR type = ?1",
                             arguments: [type?.rawValue])
        }
        var counts: [GeocodeCoordinate: Int] = [:]
        for row in rows {
            counts[GeocodeCoordinate(GeoPoint(latitude: row["latitude"], longitude: row["longitude"])), default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The localized place cached for a point in a language, from any endpoint and zoom
    /// (`preferredEndpoint` first, then the newest). Never fetches.
    public func localizedPlace(at point: GeoPoint, language: String, preferredEndpoint: String? = nil) throws -> LocalizedPlace? {
        try pool.read { db in try Self.localizedPlace(at: point, language: language, preferredEndpoint: preferredEndpoint, db: db) }
    }

    static func localizedPlace(at point: GeoPoint, language: String, preferredEndpoint: String?, db: Database) throws -> LocalizedPlace? {
        let coordinate = GeocodeCoordinate(point)
        return try Row.fetchOne(db.cachedStatement(sql: """
            SELECT town, country FROM geocode_cache WHERE latitude_e6 = ? AND longitude_e6 = ? AND language = ?
            ORDER BY endpoint = ? DESC, fetched_at DESC LIMIT 1
            """), arguments: [coordinate.latitudeE6, coordinate.longitudeE6, language, preferredEndpoint ?? ""])
            .map { LocalizedPlace(language: language, town: $0["town"], country: $0["country"]) }
    }

    private static func entry(_ row: Row) -> GeocodeCacheEntry {
        GeocodeCacheEntry(
            coordinate: GeocodeCoordinate(GeoPoint(latitude: Double(row["latitude_e6"] as Int64) / 1e6,
                                                   longitude: Double(row["longitude_e6"] as Int64) / 1e6)),
            language: row["language"], endpoint: row["endpoint"], zoom: row["zoom"],
            status: ReverseGeocodeResult.Status(rawValue: row["status"]) ?? .noResult,
            town: row["town"], townKey: row["town_key"], country: row["country"], countryCode: row["country_code"],
            source: GeocodeCacheEntry.Source(rawValue: row["source"]) ?? .request, rawResponse: row["raw_response"],
            fetchedAt: ISO8601DateFormatter().date(from: row["fetched_at"]) ?? Date(timeIntervalSince1970: 0))
    }
}
