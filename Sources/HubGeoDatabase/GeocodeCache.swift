import Foundation
import GRDB
import HubGeoModel


/// The reverse geocoding cache, kept in the hubgeo database next to the organizations (so that
/// one file holds everything, and queries can join it). It owns its tables and their migration:
///
/// - `geocode_cache`: one answer per rounded point, language, endpoint and zoom (asked, or
///   derived from another language's answer; see `CachedReverseGeocoder` in Geocoding/).
/// - `geocode_country`: a country's name per endpoint, country code and language, as an answer
///   asked in that language gave it.
/// - `geocode_country_names`: per endpoint and country code, an answer whose object is the
///   country itself with all its names (`namedetails`): a zoom-3 answer, or a point with no place
///   but its country.
/// - `geocode_town_names`: per rounded point and endpoint, the answer asked at the zoom of the
///   point's town (10 for a city) with all the town's names, when the object answered at the
///   configured zoom was not the town (a suburb, a road).
/// - `geocode_search`: per endpoint, query, language, viewbox and limit, a forward search's
///   answer (`hubgeo locate`, the suggestions of `validate --geocode`).
///
/// Failures are never stored; each save is one transaction.
package final class GeocodeCache: Sendable {
    let database: StoreDatabase

    /// The cache in `store`'s database (whose opening brought the cache's tables up to date).
    package convenience init(store: OrganizationStore) {
        self.init(database: store.database)
    }

    init(database: StoreDatabase) {
        self.database = database
    }

    // MARK: - Schema

    /// The cache's first tables: migration "v2 geocode cache" of ``DatabaseSchema/migrator`` (the
    /// identifier under which the store first created them, so databases made then keep their answers).
    static func createTables(_ db: Database) throws {
        // One row per rounded point, language, endpoint and zoom: the answer as received
        // (or the answer it was derived from), the fields hubgeo reads from it, and when.
        try db.execute(sql: """
            CREATE TABLE geocode_cache (
                latitude_e6 INTEGER NOT NULL,
                longitude_e6 INTEGER NOT NULL,
                language TEXT NOT NULL,
                endpoint TEXT NOT NULL,
                zoom INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('found', 'no_result')),
                town TEXT,
                town_key TEXT,
                country TEXT,
                country_code TEXT,
                source TEXT NOT NULL CHECK (source IN ('request', 'derived')),
                raw_response TEXT NOT NULL,
                fetched_at TEXT NOT NULL,
                PRIMARY KEY (latitude_e6, longitude_e6, language, endpoint, zoom)
            );
            CREATE TABLE geocode_country (
                endpoint TEXT NOT NULL,
                country_code TEXT NOT NULL,
                language TEXT NOT NULL,
                country TEXT NOT NULL,
                learned_at TEXT NOT NULL,
                PRIMARY KEY (endpoint, country_code, language)
            );
            """)
    }

    /// The tables of the names of countries and towns: migration "geocode cache v3".
    static func createNameTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE geocode_country_names (
                endpoint TEXT NOT NULL,
                country_code TEXT NOT NULL,
                language TEXT NOT NULL,
                raw_response TEXT NOT NULL,
                learned_at TEXT NOT NULL,
                PRIMARY KEY (endpoint, country_code)
            );
            CREATE TABLE geocode_town_names (
                latitude_e6 INTEGER NOT NULL,
                longitude_e6 INTEGER NOT NULL,
                endpoint TEXT NOT NULL,
                zoom INTEGER NOT NULL,
                language TEXT NOT NULL,
                raw_response TEXT NOT NULL,
                fetched_at TEXT NOT NULL,
                PRIMARY KEY (latitude_e6, longitude_e6, endpoint, zoom)
            );
            """)
    }

    /// The table of forward searches: migration "geocode cache v4: forward searches".
    static func createSearchTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE geocode_search (
                endpoint TEXT NOT NULL,
                query TEXT NOT NULL,
                language TEXT NOT NULL,
                viewbox TEXT NOT NULL,
                result_limit INTEGER NOT NULL,
                raw_response TEXT NOT NULL,
                fetched_at TEXT NOT NULL,
                PRIMARY KEY (endpoint, query, language, viewbox, result_limit)
            );
            """)
    }

    // MARK: - Answers

    /// The cached answer for a point and language from `endpoint` at `zoom`, if any.
    package func entry(_ coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int) throws -> GeocodeCacheEntry? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT * FROM geocode_cache
                WHERE latitude_e6 = ? AND longitude_e6 = ? AND language = ? AND endpoint = ? AND zoom = ?
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, language, endpoint, zoom]).map(Self.entry)
        }
    }

    /// All cached answers for a point from `endpoint` at `zoom`, in any language.
    package func entries(_ coordinate: GeocodeCoordinate, endpoint: String, zoom: Int) throws -> [GeocodeCacheEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM geocode_cache
                WHERE latitude_e6 = ? AND longitude_e6 = ? AND endpoint = ? AND zoom = ? ORDER BY language
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, endpoint, zoom]).map(Self.entry)
        }
    }

    /// Stores one answer in one transaction (so an interrupted run never leaves half a row), and
    /// remembers the country name of an asked answer for its country code and language.
    package func save(_ entry: GeocodeCacheEntry) throws {
        try database.write { db in
            let time = Self.timestamp(entry.fetchedAt)
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

    /// The number of cached answers.
    package func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM geocode_cache") ?? 0 }
    }

    // MARK: - Countries

    /// The country name for a country code in a language, as an answer asked in that language gave it.
    package func countryName(code: String, language: String, endpoint: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT country FROM geocode_country WHERE endpoint = ? AND country_code = ? AND language = ?",
                                arguments: [endpoint, code, language])
        }
    }

    /// The answer, asked in `language`, whose object is the country `code` with all its names.
    package func countryNamesAnswer(code: String, endpoint: String) throws -> (language: String, raw: String)? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT language, raw_response FROM geocode_country_names WHERE endpoint = ? AND country_code = ?",
                             arguments: [endpoint, code]).map { ($0["language"], $0["raw_response"]) }
        }
    }

    /// Stores an answer whose object is a country with all its names (`namedetails`).
    package func saveCountryNamesAnswer(code: String, language: String, endpoint: String, raw: String, at time: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO geocode_country_names (endpoint, country_code, language, raw_response, learned_at)
                VALUES (?, ?, ?, ?, ?)
                """, arguments: [endpoint, code, language, raw, Self.timestamp(time)])
        }
    }

    // MARK: - Towns

    /// The answer asked at `zoom` at a point for the names of its town, if any.
    package func townNamesAnswer(_ coordinate: GeocodeCoordinate, endpoint: String, zoom: Int) throws -> (language: String, raw: String)? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT language, raw_response FROM geocode_town_names
                WHERE latitude_e6 = ? AND longitude_e6 = ? AND endpoint = ? AND zoom = ?
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, endpoint, zoom])
                .map { ($0["language"], $0["raw_response"]) }
        }
    }

    /// Stores an answer asked at `zoom` at a point for the names of its town.
    package func saveTownNamesAnswer(_ coordinate: GeocodeCoordinate, endpoint: String, zoom: Int, language: String, raw: String,
                                    at time: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO geocode_town_names (latitude_e6, longitude_e6, endpoint, zoom, language, raw_response, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [coordinate.latitudeE6, coordinate.longitudeE6, endpoint, zoom, language, raw, Self.timestamp(time)])
        }
    }

    // MARK: - Forward searches

    /// The answer cached for a forward search (its query as sent, language, viewbox or "" and
    /// limit) from `endpoint`, and when it was fetched; nil when none is.
    package func searchAnswer(endpoint: String, query: String, language: String, viewbox: String, limit: Int) throws
        -> (raw: String, fetchedAt: Date)? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT raw_response, fetched_at FROM geocode_search
                WHERE endpoint = ? AND query = ? AND language = ? AND viewbox = ? AND result_limit = ?
                """, arguments: [endpoint, query, language, viewbox, limit])
                .map { ($0["raw_response"], RFC3339.date($0["fetched_at"]) ?? Date(timeIntervalSince1970: 0)) }
        }
    }

    /// Stores a forward search's answer, as received, in one transaction (replacing an older one).
    package func saveSearchAnswer(endpoint: String, query: String, language: String, viewbox: String, limit: Int,
                                  raw: String, at time: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO geocode_search (endpoint, query, language, viewbox, result_limit, raw_response, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [endpoint, query, language, viewbox, limit, raw, Self.timestamp(time)])
        }
    }

    // MARK: - Reading for queries

    /// The answer cached for a point as `source` picks it (its language, endpoint and zoom):
    /// `status`, `town` and `country` as answered; nil when there is none. Never fetches.
    static func cachedPlace(at point: GeoPoint, source: LocalizationSource, db: Database) throws
        -> (town: String?, country: String?)? {
        // A database made before the cache existed, opened read-only, has none.
        guard try db.tableExists("geocode_cache") else { return nil }
        let coordinate = GeocodeCoordinate(point)
        return try Row.fetchOne(db.cachedStatement(sql: """
            SELECT town, country FROM geocode_cache
            WHERE latitude_e6 = ? AND longitude_e6 = ? AND language = ? AND endpoint = ? AND zoom = ?
            """), arguments: [coordinate.latitudeE6, coordinate.longitudeE6, source.language, source.endpoint, source.zoom])
            .map { ($0["town"], $0["country"]) }
    }

    // MARK: - Rows

    private static func timestamp(_ date: Date) -> String { RFC3339.string(date) }

    private static func entry(_ row: Row) -> GeocodeCacheEntry {
        GeocodeCacheEntry(
            coordinate: GeocodeCoordinate(GeoPoint(latitude: Double(row["latitude_e6"] as Int64) / 1e6,
                                                   longitude: Double(row["longitude_e6"] as Int64) / 1e6)),
            language: row["language"], endpoint: row["endpoint"], zoom: row["zoom"],
            status: GeocodeStatus(rawValue: row["status"]) ?? .noResult,
            town: row["town"], townKey: row["town_key"], country: row["country"], countryCode: row["country_code"],
            source: GeocodeCacheEntry.Source(rawValue: row["source"]) ?? .request, rawResponse: row["raw_response"],
            fetchedAt: RFC3339.date(row["fetched_at"]) ?? Date(timeIntervalSince1970: 0))
    }
}

extension OrganizationReading where Self: ~Copyable {
    /// The languages that have at least one cached localized town or country, sorted.
    package func cachedLanguages() throws -> [String] {
        // A database made by an older hubgeo, opened read-only, may have no cache yet.
        guard try hasGeocodeCache() else { return [] }
        return try database.read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT language FROM geocode_cache WHERE town IS NOT NULL OR country IS NOT NULL ORDER BY language
                """)
        }
    }

    /// The localized place a query shows for `organization` (see ``LocalizedPlace/shown(language:answeredTown:country:level1Town:)``):
    /// the answer cached for its coordinates as `source` picks it, with the Level 1 town where
    /// that answer has none; nil when nothing is cached there (never localized). Never fetches.
    package func localizedPlace(of organization: Organization, source: LocalizationSource) throws -> LocalizedPlace? {
        try database.read { db in try Self.localizedPlace(at: organization.coordinates, level1Town: organization.town, source: source, db: db) }
    }

    /// The answer cached for a point as `source` picks it, as answered (no town when Nominatim
    /// gave none); nil when nothing is cached. Never fetches.
    package func cachedPlace(at point: GeoPoint, source: LocalizationSource) throws -> LocalizedPlace? {
        try database.read { db in
            try GeocodeCache.cachedPlace(at: point, source: source, db: db).map {
                LocalizedPlace(language: source.language, town: $0.town, country: $0.country)
            }
        }
    }

    static func localizedPlace(at point: GeoPoint, level1Town: String, source: LocalizationSource, db: Database) throws -> LocalizedPlace? {
        try GeocodeCache.cachedPlace(at: point, source: source, db: db).map {
            LocalizedPlace.shown(language: source.language, answeredTown: $0.town, country: $0.country, level1Town: level1Town)
        }
    }
}

extension OrganizationStore {
    /// The geocode cache in this database.
    package var geocodeCache: GeocodeCache { GeocodeCache(store: self) }
}
