import Foundation
import GRDB

extension OrganizationStore {
    /// Organizations within `radiusMeters` of `center` by ellipsoidal (WGS84) distance,
    /// nearest first. The R*Tree index preselects candidates in boxes that cover the circle
    /// (split at the antimeridian, widened to all longitudes around a pole); the exact
    /// distance is computed for the candidates only.
    public func near(_ center: GeoPoint, radiusMeters: Double, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try matches(.near(center, radiusMeters: radiusMeters), filter: filter, order: .distance)
    }

    /// The `count` organizations nearest to `center`, whatever their distance: searches
    /// growing circles until enough organizations are inside one. The filter's offset skips
    /// that many nearest first, and its limit, when smaller than `count`, returns fewer (0: none).
    public func nearest(_ center: GeoPoint, count: Int, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        let count = max(0, min(count, filter.limit ?? count))
        let (sum, overflow) = count.addingReportingOverflow(filter.offset)
        let wanted = overflow ? Int.max : sum
        var pageFilter = filter
        pageFilter.limit = count
        let typeOnly = OrganizationFilter(type: filter.type)
        var radius = 25_000.0
        while true {
            let found = try self.count(.near(center, radiusMeters: radius), filter: typeOnly)
            if found >= wanted || radius >= Self.farthestDistance {
                return try near(center, radiusMeters: radius, filter: pageFilter)
            }
            radius = min(radius * 4, Self.farthestDistance)
        }
    }

    /// Organizations inside a box given by its west, south, east and north edges (degrees).
    /// A box whose west edge lies east of its east edge crosses the antimeridian.
    public func within(west: Double, south: Double, east: Double, north: Double,
                       filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try matches(.within(west: west, south: south, east: east, north: north), filter: filter, order: .name)
    }

    /// Organizations whose full name, nickname or town contains `text`, ignoring case and accents.
    public func search(_ text: String, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try matches(.search(text), filter: filter, order: .name)
    }

    /// All organizations, by name.
    public func all(filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try matches(.all, filter: filter, order: .name)
    }

    /// The ellipsoidal (WGS84) distance in metres between two points, as `near` measures it.
    public func geodesicDistance(from a: GeoPoint, to b: GeoPoint) throws -> Double {
        try pool.read { db in
            try Double.fetchOne(db.cachedStatement(sql: "SELECT ST_Distance(MakePoint(?, ?, 4326), MakePoint(?, ?, 4326), 1)"),
                                arguments: [a.longitude, a.latitude, b.longitude, b.latitude]) ?? 0
        }
    }

    /// The one organization that `name` designates: its nickname, its full name or its stable id
    /// (ignoring case and accents), or else the only one whose names contain it.
    public func organization(named name: String) throws -> Organization {
        try pool.read { db in
            let folded = name.searchFolded
            // Rows whose names contain the text; exact names win over mere containment.
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(OrganizationRow.columns), o.search_key FROM organization o
                WHERE instr(o.search_key, ?) > 0 OR o.stable_id = ?
                """, arguments: [folded, name])
            let exact = rows.filter {
                ($0["stable_id"] as String) == name
                    || ($0["nick_name"] as String).searchFolded == folded
                    || ($0["full_name"] as String).searchFolded == folded
            }
            let matches = exact.isEmpty ? rows : exact
            guard !matches.isEmpty else { throw StoreError.noMatch(name) }
            guard matches.count == 1 else {
                throw StoreError.ambiguous(name, candidates: matches.map {
                    "\($0["nick_name"] as String) = \($0["full_name"] as String) (\($0["town"] as String))"
                }.sorted())
            }
            return try OrganizationRow.organization(from: matches[0], db: db, includeMembers: true)
        }
    }

    /// Counts, extent, source and time of the last import.
    public func statistics() throws -> StoreStatistics {
        try pool.read { db in
            let counts = try Row.fetchOne(db, sql: """
                SELECT sum(type = 'club') AS clubs, sum(type = 'museum') AS museums, sum(has_level2) AS level2,
                       min(latitude) AS south, min(longitude) AS west, max(latitude) AS north, max(longitude) AS east
                FROM organization
                """)
            let run = try Row.fetchOne(db, sql: "SELECT source, imported_at FROM import_run ORDER BY id DESC LIMIT 1")
            var statistics = StoreStatistics(databasePath: path, clubs: counts?["clubs"] ?? 0, museums: counts?["museums"] ?? 0,
                                             clubsWithLevel2: counts?["level2"] ?? 0)
            if let south: Double = counts?["south"], let west: Double = counts?["west"],
               let north: Double = counts?["north"], let east: Double = counts?["east"] {
                statistics.southWest = GeoPoint(latitude: south, longitude: west)
                statistics.northEast = GeoPoint(latitude: north, longitude: east)
            }
            statistics.source = run?["source"]
            if let time: String = run?["imported_at"] { statistics.importedAt = ISO8601DateFormatter().date(from: time) }
            return statistics
        }
    }

    // MARK: - Building blocks

    /// Adds the cached localized place for the filter's language, if any.
    static func localized(_ match: PlaceMatch, filter: OrganizationFilter, db: Database) throws -> PlaceMatch {
        guard let language = filter.language else { return match }
        var match = match
        match.localized = try localizedPlace(at: match.organization.coordinates, language: language,
                                             preferredEndpoint: filter.preferredEndpoint, db: db)
        return match
    }

    /// Half the length of a meridian: no two points on Earth are farther apart.
    static let farthestDistance = 20_003_931.5

    /// The organizations `selection` picks, in `order`, paged by `filter`.
    func matches(_ selection: OrganizationSelection, filter: OrganizationFilter, order: SelectionOrder) throws -> [PlaceMatch] {
        let (sql, arguments) = try Self.selectionSQL(selection, filter: filter, order: order)
        return try pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                let organization = try OrganizationRow.organization(from: row, db: db, includeMembers: false)
                return try Self.localized(PlaceMatch(organization: organization, distanceMeters: row["match_distance"]),
                                          filter: filter, db: db)
            }
        }
    }

    /// A subquery of the ids whose index box meets any of `boxes`.
    static func candidateSQL(boxes: [LonLatBox]) -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        let parts = boxes.map { _ in
            "SELECT pkid FROM idx_organization_geom WHERE xmax >= ? AND xmin <= ? AND ymax >= ? AND ymin <= ?"
        }
        var arguments: [(any DatabaseValueConvertible)?] = []
        for box in boxes {
            arguments += [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude]
        }
        return (parts.isEmpty ? "SELECT NULL WHERE 0" : parts.joined(separator: " UNION ALL "), arguments)
    }
}
