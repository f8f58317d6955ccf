import Foundation
import GRDB

extension OrganizationStore {
    /// Organizations within `radiusMeters` of `center` by ellipsoidal (WGS84) distance,
    /// nearest first. The R*Tree index preselects candidates in boxes that cover the circle
    /// (split at the antimeridian, widened to all longitudes around a pole); the exact
    /// distance is computed for the candidates only.
    public func near(_ center: GeoPoint, radiusMeters: Double, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try pool.read { db in
            try near(center, radiusMeters: radiusMeters, filter: filter, db: db)
        }
    }

    /// The `count` organizations nearest to `center`, whatever their distance: searches
    /// growing circles until enough organizations are inside one.
    public func nearest(_ center: GeoPoint, count: Int, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        let wanted = count + filter.offset
        var pageFilter = filter
        pageFilter.limit = count
        return try pool.read { db in
            var radius = 25_000.0
            while true {
                let found = try self.count(near: center, radiusMeters: radius, type: filter.type, db: db)
                if found >= wanted || radius >= Self.farthestDistance {
                    return try near(center, radiusMeters: radius, filter: pageFilter, db: db)
                }
                radius = min(radius * 4, Self.farthestDistance)
            }
        }
    }

    /// Organizations inside a box given by its west, south, east and north edges (degrees).
    /// A box whose west edge lies east of its east edge crosses the antimeridian.
    public func within(west: Double, south: Double, east: Double, north: Double,
                       filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        let boxes = try SearchBoxes.splitting(west: west, south: south, east: east, north: north)
        return try pool.read { db in
            let candidates = Self.candidateSQL(boxes: boxes)
            var sql = "SELECT \(OrganizationRow.columns) FROM organization o WHERE o.id IN (\(candidates.sql))"
            var arguments = candidates.arguments
            // The index holds float32 boxes: confirm against the exact coordinates.
            let exact = boxes.map { _ in "(o.longitude BETWEEN ? AND ? AND o.latitude BETWEEN ? AND ?)" }
            sql += " AND (\(exact.joined(separator: " OR ")))"
            for box in boxes {
                arguments += [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude]
            }
            Self.appendType(filter.type, to: &sql, arguments: &arguments)
            sql += " ORDER BY o.full_name, o.town"
            Self.appendPage(filter, to: &sql, arguments: &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                try Self.localized(PlaceMatch(organization: try OrganizationRow.organization(from: $0, db: db, includeMembers: false)),
                                   filter: filter, db: db)
            }
        }
    }

    /// Organizations whose full name, nickname or town contains `text`, ignoring case and accents.
    public func search(_ text: String, filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try pool.read { db in
            var sql = "SELECT \(OrganizationRow.columns) FROM organization o WHERE instr(o.search_key, ?) > 0"
            var arguments: [(any DatabaseValueConvertible)?] = [text.searchFolded]
            Self.appendType(filter.type, to: &sql, arguments: &arguments)
            sql += " ORDER BY o.full_name, o.town"
            Self.appendPage(filter, to: &sql, arguments: &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
                try Self.localized(PlaceMatch(organization: try OrganizationRow.organization(from: $0, db: db, includeMembers: false)),
                                   filter: filter, db: db)
            }
        }
    }

    /// All organizations, by name.
    public func all(filter: OrganizationFilter = .init()) throws -> [PlaceMatch] {
        try search("", filter: filter)
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

    private func near(_ center: GeoPoint, radiusMeters: Double, filter: OrganizationFilter, db: Database) throws -> [PlaceMatch] {
        let boxes = SearchBoxes.covering(center: center, radiusMeters: radiusMeters)
        let candidates = Self.candidateSQL(boxes: boxes)
        var sql = """
            SELECT * FROM (
                SELECT \(OrganizationRow.columns),
                       ST_Distance(o.geom, MakePoint(?, ?, 4326), 1) AS distance
                FROM organization o WHERE o.id IN (\(candidates.sql))
            """
        var arguments: [(any DatabaseValueConvertible)?] = [center.longitude, center.latitude] + candidates.arguments
        Self.appendType(filter.type, to: &sql, arguments: &arguments)
        sql += ") AS o WHERE distance <= ? ORDER BY distance, full_name"
        arguments.append(radiusMeters)
        Self.appendPage(filter, to: &sql, arguments: &arguments)
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
            try Self.localized(PlaceMatch(organization: try OrganizationRow.organization(from: $0, db: db, includeMembers: false),
                                          distanceMeters: $0["distance"]), filter: filter, db: db)
        }
    }

    private func count(near center: GeoPoint, radiusMeters: Double, type: OrganizationType?, db: Database) throws -> Int {
        let candidates = Self.candidateSQL(boxes: SearchBoxes.covering(center: center, radiusMeters: radiusMeters))
        var sql = "SELECT count(*) FROM organization o WHERE o.id IN (\(candidates.sql))"
        var arguments = candidates.arguments
        Self.appendType(type, to: &sql, arguments: &arguments)
        sql += " AND ST_Distance(o.geom, MakePoint(?, ?, 4326), 1) <= ?"
        arguments += [center.longitude, center.latitude, radiusMeters]
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
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

    static func appendType(_ type: OrganizationType?, to sql: inout String, arguments: inout [(any DatabaseValueConvertible)?]) {
        guard let type else { return }
        sql += " AND o.type = ?"
        arguments.append(type.rawValue)
    }

    static func appendPage(_ filter: OrganizationFilter, to sql: inout String, arguments: inout [(any DatabaseValueConvertible)?]) {
        sql += " LIMIT ? OFFSET ?"
        arguments += [filter.limit ?? -1, filter.offset]
    }
}
