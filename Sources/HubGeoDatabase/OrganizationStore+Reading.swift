import GRDB
import HubGeoModel

extension OrganizationReading where Self: ~Copyable {
    /// Calls `body` with the organizations `selection` picks, in `order`, paged by `filter`, in
    /// chunks of at most `chunkSize`: one pass over one statement for the rows with their cached
    /// localized places, and per chunk one statement for the remarks and one for the overrides
    /// (never a query per organization). Memory holds one chunk at a time. Members are not read.
    public func forEachChunk(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder,
                             chunkSize: Int = 1_000, body: ([PlaceMatch]) throws -> Void) throws {
        try forEachChunk(OrganizationQuery(selection, filter: filter, order: order), chunkSize: chunkSize, body: body)
    }

    /// Calls `body` with each organization that `selection` and `filter` pick, in `order` (by
    /// default by stable id, a deterministic order that does not depend on import history and
    /// needs no sort of whole rows), read in chunks (see
    /// ``forEachChunk(_:filter:order:chunkSize:body:)``): memory does not grow with the number of
    /// organizations. `near` matches carry their distance. Members are not read.
    public func forEach(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder = .stableID,
                        body: (PlaceMatch) throws -> Void) throws {
        try forEachChunk(selection, filter: filter, order: order) { chunk in
            for match in chunk { try body(match) }
        }
    }

    /// How many organizations `forEach` would visit.
    public func count(_ selection: OrganizationSelection, filter: OrganizationFilter = .init()) throws -> Int {
        let (sql, arguments) = try OrganizationQuery(selection, filter: filter, order: .stableID).matchSQL()
        return try database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: StatementArguments(arguments)) ?? 0
        }
    }

    /// The organizations `selection` picks, in `order`, paged by `filter`, in one array.
    func matches(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder) throws -> [PlaceMatch] {
        var all: [PlaceMatch] = []
        try forEachChunk(selection, filter: filter, order: order, chunkSize: .max) { all += $0 }
        return all
    }

    /// Every stored organization with its remarks, overrides and members, by stable id.
    package func forEachStored(_ body: (Organization) throws -> Void) throws {
        try forEachChunk(OrganizationQuery(.all, order: .stableID), includeMembers: true) { chunk in
            for match in chunk { try body(match.organization) }
        }
    }

    /// The one read of organizations as values: `query`'s rows (``OrganizationQuery/rowsSQL(localization:level1Documents:)``),
    /// decoded by ``OrganizationRow``, in chunks with their relations. A database that an older hubgeo
    /// wrote, not migrated yet (a read-only command does not migrate), has its Level 1 paths in a column.
    func forEachChunk(_ query: OrganizationQuery, includeMembers: Bool = false, chunkSize: Int = 1_000,
                      body: ([PlaceMatch]) throws -> Void) throws {
        let localization = try query.filter.localization.flatMap { try hasGeocodeCache() ? $0 : nil }
        try database.read { db in
            let (sql, arguments) = try query.rowsSQL(localization: localization, level1Documents: try SourceDocuments.exist(db))
            // Cached: the same query shape is prepared once per connection.
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            var chunk: [PlaceMatch] = []
            var ids: [Int64] = []
            func complete() throws {
                guard !chunk.isEmpty else { return }
                try OrganizationRow.addRelations(to: &chunk, ids: ids, includeMembers: includeMembers, db: db)
                try body(chunk)
                chunk.removeAll(keepingCapacity: true)
                ids.removeAll(keepingCapacity: true)
            }
            while let row = try cursor.next() {
                // After the organization's columns: the distance, then the localized columns.
                let next = OrganizationRow.nextColumn
                var match = PlaceMatch(organization: try OrganizationRow.organizationWithoutRelations(from: row),
                                       distanceMeters: row[next])
                if let localization, row[next + 3] as Bool {
                    let checked = CheckedRow(row, place: "the geocode cache's answer for organization row \(row[OrganizationRow.Column.id.index] as Int64)")
                    match.localized = LocalizedPlace.shown(language: localization.language, answeredTown: try checked.optionalText(next + 1, "town"),
                                                           country: try checked.optionalText(next + 2, "country"),
                                                           level1Town: match.organization.town)
                }
                chunk.append(match)
                ids.append(row[OrganizationRow.Column.id.index])
                if chunk.count >= chunkSize { try complete() }
            }
            try complete()
        }
    }
}
