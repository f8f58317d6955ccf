import Foundation
import GRDB
import HubGeoJSON
import HubGeoModel
import HubGeoReader

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
        try snapshot { store in
            let (selection, pageFilter) = try store.nearestSelection(center, count: count, filter: filter)
            return try store.matches(selection, filter: pageFilter, order: .distance)
        }
    }

    /// The selection and filter whose results, nearest first, are the `count` organizations
    /// nearest to `center` (as ``nearest(_:count:filter:)`` pages them): a circle grown until
    /// enough organizations are inside.
    public func nearestSelection(_ center: GeoPoint, count: Int, filter: OrganizationFilter = .init()) throws
        -> (OrganizationSelection, OrganizationFilter) {
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
                return (.near(center, radiusMeters: radius), pageFilter)
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
        Geodesic.distance(a, b)
    }

    /// The one organization that `name` designates: its nickname, its full name or its stable id
    /// (ignoring case and accents), or else the only one whose names contain it. Throws
    /// ``OrganizationLookupError`` when none or several match, ``StoreError`` when the database fails.
    public func organization(named name: String) throws -> Organization {
        try database.read { db in
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
            guard !matches.isEmpty else { throw OrganizationLookupError.noMatch(name) }
            guard matches.count == 1 else {
                throw OrganizationLookupError.ambiguous(name, candidates: matches.map {
                    "\($0["nick_name"] as String) = \($0["full_name"] as String) (\($0["town"] as String))"
                }.sorted())
            }
            return try OrganizationRow.organization(from: matches[0], db: db, includeMembers: true)
        }
    }

    /// Counts, extent, source and time of the last import.
    public func statistics() throws -> StoreStatistics {
        try database.read { db in
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

    /// Adds the localized place the filter's ``OrganizationFilter/localization`` picks, if cached.
    static func localized(_ match: PlaceMatch, filter: OrganizationFilter, db: Database) throws -> PlaceMatch {
        guard let source = filter.localization else { return match }
        var match = match
        match.localized = try localizedPlace(at: match.organization.coordinates, level1Town: match.organization.town,
                                             source: source, db: db)
        return match
    }

    /// Half the length of a meridian: no two points on Earth are farther apart.
    static let farthestDistance = 20_003_931.5

    /// The organizations `selection` picks, in `order`, paged by `filter` (see ``forEachChunk``).
    func matches(_ selection: OrganizationSelection, filter: OrganizationFilter, order: SelectionOrder) throws -> [PlaceMatch] {
        var all: [PlaceMatch] = []
        try forEachChunk(selection, filter: filter, order: order.resultOrder, chunkSize: .max) { all += $0 }
        return all
    }

    /// Calls `body` with the organizations `selection` picks, in `order`, paged by `filter`, in
    /// chunks of at most `chunkSize`: one pass over one statement for the rows with their cached
    /// localized places, and per chunk one statement for the remarks and one for the overrides
    /// (never a query per organization). Memory holds one chunk at a time. Members are not read.
    public func forEachChunk(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder,
                             chunkSize: Int = 1_000, body: ([PlaceMatch]) throws -> Void) throws {
        let (matches, matchArguments) = try Self.matchSQL(selection, filter: filter, order: order.selectionOrder)
        var arguments = matchArguments
        var localizedColumns = ""
        var localizedJoin = ""
        if let source = filter.localization, try hasGeocodeCache() {
            localizedColumns = ", g.town AS localized_town, g.country AS localized_country, g.rowid IS NOT NULL AS localized"
            localizedJoin = Self.localizedJoin
            arguments += Self.localizedJoinArguments(source)
        }
        let readsPlaces = !localizedColumns.isEmpty
        let sql = """
            SELECT \(OrganizationRow.columns), m.match_distance\(localizedColumns)
            FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
            \(localizedJoin)
            """
        try database.read { db in
            // Cached: the same query shape is prepared once per connection.
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            var chunk: [PlaceMatch] = []
            var ids: [Int64] = []
            func complete() throws {
                guard !chunk.isEmpty else { return }
                try Self.addRelations(to: &chunk, ids: ids, db: db)
                try body(chunk)
                chunk.removeAll(keepingCapacity: true)
                ids.removeAll(keepingCapacity: true)
            }
            while let row = try cursor.next() {
                // By position: `columns`, then the distance and the localized columns.
                let next = OrganizationRow.columnCount
                var match = PlaceMatch(organization: OrganizationRow.organizationWithoutRelations(from: row),
                                       distanceMeters: row[next])
                if let language = filter.language, readsPlaces, row[next + 3] as Bool {
                    match.localized = LocalizedPlace.shown(language: language, answeredTown: row[next + 1], country: row[next + 2],
                                                           level1Town: match.organization.town)
                }
                chunk.append(match)
                ids.append(row[0])
                if chunk.count >= chunkSize { try complete() }
            }
            try complete()
        }
    }

    /// Fills in the remarks and overrides of `matches` (whose row ids are `ids`): one statement each.
    static func addRelations(to matches: inout [PlaceMatch], ids: [Int64], db: Database) throws {
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        var index: [Int64: Int] = [:]
        for (position, id) in ids.enumerated() { index[id] = position }
        let remarkRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, language, value FROM organization_remark
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, language
            """), arguments: [idList])
        while let row = try remarkRows.next() {
            if let position = index[row[0]] {
                matches[position].organization.remarks.append(LocalizedRemark(language: row[1], value: row[2]))
            }
        }
        let overrideRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, field, level1_value, level2_value FROM level2_override
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, field
            """), arguments: [idList])
        while let row = try overrideRows.next() {
            if let position = index[row[0]] {
                matches[position].organization.overrides.append(FieldOverride(field: row[1], level1Value: row[2], level2Value: row[3]))
            }
        }
    }

    /// Joins `g`, the answer cached for the point of `o` in one language from one endpoint at one
    /// zoom (``localizedJoinArguments(_:)``): at most one row, by the cache's primary key.
    static let localizedJoin = """
        LEFT JOIN geocode_cache g
            ON g.latitude_e6 = CAST(round(o.latitude * 1000000) AS INTEGER)
           AND g.longitude_e6 = CAST(round(o.longitude * 1000000) AS INTEGER)
           AND g.language = ? AND g.endpoint = ? AND g.zoom = ?
        """

    /// The arguments of ``localizedJoin``.
    static func localizedJoinArguments(_ source: LocalizationSource) -> [(any DatabaseValueConvertible)?] {
        [source.language, source.endpoint, source.zoom]
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
