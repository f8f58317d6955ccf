import GRDB
import HubGeoModel

extension OrganizationReading where Self: ~Copyable {
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
    package func nearestSelection(_ center: GeoPoint, count: Int, filter: OrganizationFilter = .init()) throws
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

    /// The organization whose id (the 16 hexadecimal digits every answer carries) is `id`, exactly;
    /// nil when none has it. Names are not looked at: an id that is also a nickname finds the id's.
    public func organization(id: String) throws -> Organization? {
        try snapshot { store in
            guard let row = try store.database.read({ db in
                try Int64.fetchOne(db, sql: "SELECT id FROM organization WHERE stable_id = ?", arguments: [id])
            }) else { return nil }
            var found: Organization?
            try store.forEachChunk(OrganizationQuery(.row(row), order: .stableID), includeMembers: true) {
                found = $0.first?.organization
            }
            return found
        }
    }

    /// The one organization that `name` designates: its stable id (exactly: an id wins over a
    /// nickname that spells it), else its nickname or its full name (ignoring case and accents),
    /// or else the only one whose names contain it. Throws ``OrganizationLookupError`` when none or
    /// several match, ``StoreError`` when the database fails.
    public func organization(named name: String) throws -> Organization {
        try snapshot { store in
            if let byID = try store.organization(id: name) { return byID }
            let folded = name.searchFolded
            // Rows whose names contain the text; exact names win over mere containment.
            let rows = try store.database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT o.id, o.stable_id, o.nick_name, o.full_name, o.town FROM organization o
                    WHERE instr(o.search_key, ?) > 0 OR o.stable_id = ?
                    """, arguments: [folded, name]).map { row in
                    let checked = CheckedRow(row, place: "organization row \(row[0] as Int64)")
                    return Candidate(id: row[0], stableID: try checked.text(1, "stable_id"), nickName: try checked.text(2, "nick_name"),
                                     fullName: try checked.text(3, "full_name"), town: try checked.text(4, "town"))
                }
            }
            let exact = rows.filter {
                $0.stableID == name || $0.nickName.searchFolded == folded || $0.fullName.searchFolded == folded
            }
            let matches = exact.isEmpty ? rows : exact
            guard !matches.isEmpty else { throw OrganizationLookupError.noMatch(name) }
            guard matches.count == 1 else {
                throw OrganizationLookupError.ambiguous(name, candidates: matches.map {
                    "\($0.nickName) = \($0.fullName) (\($0.town))"
                }.sorted())
            }
            var found: Organization?
            try store.forEachChunk(OrganizationQuery(.row(matches[0].id), order: .stableID), includeMembers: true) {
                found = $0.first?.organization
            }
            guard let found else { throw OrganizationLookupError.noMatch(name) }
            return found
        }
    }

    /// Counts, extent, source and time of the last import: one row, the last import's
    /// (`ImportStatistics`), whatever the number of organizations. A database whose last
    /// import recorded no counts (an older hubgeo's, until the next import), or whose rows another
    /// program wrote since it (counted by triggers in the `organization_writes` table), is scanned.
    public func statistics() throws -> StoreStatistics {
        try database.read { db in
            // The counts the last import recorded, unless another program wrote rows since (``OrganizationWrites``).
            let stored = try ImportStatistics.stored(in: db) && OrganizationWrites.sinceImport(db) == nil
            let recorded = stored ? ", " + ImportStatistics.columns.joined(separator: ", ") : ""
            let run = try Row.fetchOne(db, sql: "SELECT id, source, imported_at\(recorded) FROM import_run ORDER BY id DESC LIMIT 1")
            var counts: ImportStatistics?
            var statistics = StoreStatistics(databasePath: database.path, clubs: 0, museums: 0, clubsWithLevel2: 0)
            if let run {
                let checked = CheckedRow(run, place: "import_run row \(run[0] as Int64)")
                statistics.source = try checked.text(1, "source")
                statistics.importedAt = RFC3339.date(try checked.text(2, "imported_at"))
                if stored { counts = try ImportStatistics(checked, from: 3) }
            }
            let numbers = try counts ?? ImportStatistics.scan(db)
            statistics.clubs = numbers.clubs
            statistics.museums = numbers.museums
            statistics.clubsWithLevel2 = numbers.clubsWithLevel2
            statistics.southWest = numbers.southWest
            statistics.northEast = numbers.northEast
            return statistics
        }
    }

    // MARK: - Building blocks

    /// Half the length of a meridian: no two points on Earth are farther apart.
    static var farthestDistance: Double { 20_003_931.5 }
}

/// A row whose names contain the text of ``OrganizationReading/organization(named:)``.
private struct Candidate {
    var id: Int64, stableID: String, nickName: String, fullName: String, town: String
}
