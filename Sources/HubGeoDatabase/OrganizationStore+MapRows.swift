import GRDB
import HubGeoClusters
import HubGeoModel

/// What a map tile shows of an organization: its row id (the cluster index's id), stable id,
/// names, type, town and, with a language, the localized town (the Level 1 town where the cached
/// answer has none) and country, as the exports give them.
package struct MapOrganizationRow: Sendable, Equatable {
    package var rowID: Int64
    package var stableID: String
    package var name: String
    package var nickName: String
    package var type: OrganizationType
    package var town: String
    package var localizedTown: String?
    package var localizedCountry: String?
    package var latitude: Double
    package var longitude: Double
}

extension OrganizationReading where Self: ~Copyable {
    private static var mapColumns: String { "o.id, o.stable_id, o.full_name, o.nick_name, o.type, o.town, o.latitude, o.longitude" }

    /// The map's view of a row that starts with ``mapColumns`` (then, when `localized`, the
    /// ``OrganizationQuery/localizedColumns``), each value checked as every row decoder checks it
    /// (``CheckedRow``): a damaged row is an error naming its row and column, not a club at 0, 0.
    private func mapRow(_ row: Row, localized: Bool) throws -> MapOrganizationRow {
        typealias Column = OrganizationRow.Column
        let rowID: Int64 = row[0]
        let checked = CheckedRow(row, place: "organization row \(rowID)")
        func text(_ index: Int, _ column: Column) throws -> String { try checked.text(index, column.name) }
        func number(_ index: Int, _ column: Column) throws -> Double { try checked.number(index, column.name, in: column.kind.range) }
        var result = MapOrganizationRow(
            rowID: rowID, stableID: try text(1, .stableID), name: try text(2, .fullName), nickName: try text(3, .nickName),
            type: try checked.type(4), town: try text(5, .town), localizedTown: nil, localizedCountry: nil,
            latitude: try number(6, .latitude), longitude: try number(7, .longitude))
        if localized, try checked.boolean(10, "cached answer") {
            let answer = CheckedRow(row, place: "the geocode cache's answer for organization row \(rowID)")
            result.localizedTown = LocalizedPlace.townShown(answered: try answer.optionalText(8, "town") ?? "", level1: result.town).town
            result.localizedCountry = try answer.optionalText(9, "country")
        }
        return result
    }

    /// Calls `body` with the rows of the organizations `selection` and `filter` pick (with the
    /// cached places of `filter.localization`), in one statement, in row id order.
    package func forEachMapRow(_ selection: OrganizationSelection, filter: OrganizationFilter,
                               body: (MapOrganizationRow) throws -> Void) throws {
        let (matches, matchArguments) = try OrganizationQuery(selection, filter: filter, order: .stableID).matchSQL()
        var arguments = matchArguments
        let localization = try filter.localization.flatMap { try hasGeocodeCache() ? $0 : nil }
        var sql = "SELECT \(Self.mapColumns)"
        if let localization {
            sql += ", " + OrganizationQuery.localizedColumns
            arguments += OrganizationQuery.localizedJoinArguments(localization)
        }
        sql += "\nFROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id"
        if localization != nil { sql += "\n" + OrganizationQuery.localizedJoin }
        try database.read { db in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() { try body(try mapRow(row, localized: localization != nil)) }
        }
    }

    /// The rows of the organizations with these row ids (those that exist), with the cached places
    /// of `localization`: one query (the ids as a JSON array, each looked up by its row id), as a
    /// served tile reads the organizations it lists.
    package func mapRows(ids: some Sequence<Int64>, localization: LocalizationSource?) throws -> [Int64: MapOrganizationRow] {
        let wanted = Set(ids)
        guard !wanted.isEmpty else { return [:] }
        let localization = try localization.flatMap { try hasGeocodeCache() ? $0 : nil }
        var sql = "SELECT \(Self.mapColumns)"
        if localization != nil { sql += ", " + OrganizationQuery.localizedColumns }
        sql += "\nFROM json_each(?) AS wanted CROSS JOIN organization o ON o.id = wanted.value"
        var arguments: [(any DatabaseValueConvertible)?] = ["[" + wanted.sorted().map(String.init).joined(separator: ",") + "]"]
        if let localization {
            sql += "\n" + OrganizationQuery.localizedJoin
            arguments += OrganizationQuery.localizedJoinArguments(localization)
        }
        return try database.read { db in
            let cursor = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            var rows: [Int64: MapOrganizationRow] = [:]
            while let row = try cursor.next() {
                let mapped = try mapRow(row, localized: localization != nil)
                rows[mapped.rowID] = mapped
            }
            return rows
        }
    }

    /// Of the organizations with these row ids, those a list of at most `limit` of them shows: the
    /// first by name, then town (as ``MapClusters`` and the tiles sort a co-located group), by row
    /// id. Reads only their ids, names and towns, in one query.
    package func firstByName(ids: some Sequence<Int64>, limit: Int) throws -> [Int64] {
        let wanted = Set(ids)
        guard !wanted.isEmpty, limit > 0 else { return [] }
        let sql = "SELECT o.id, o.full_name, o.town FROM json_each(?) AS wanted CROSS JOIN organization o ON o.id = wanted.value"
        let list = "[" + wanted.sorted().map(String.init).joined(separator: ",") + "]"
        var named: [(id: Int64, name: String, town: String)] = []
        try database.read { db in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: [list])
            while let row = try cursor.next() {
                let id: Int64 = row[0]
                let checked = CheckedRow(row, place: "organization row \(id)")
                let name = try checked.text(1, "full_name"), town = try checked.text(2, "town")
                named.append((id: id, name: name, town: town))
            }
        }
        named.sort { ($0.name, $0.town) < ($1.name, $1.town) }
        return named.prefix(limit).map(\.id)
    }

    /// Per item of `index` (built from this database's row ids), how many of its organizations
    /// are museums: one pass over the organizations' types, one over the index.
    package func museumCounts(of index: ClusterIndex) throws -> [UInt32] {
        // A set, not an array indexed by row id: a row id can be as large as SQLite allows (a
        // database edited by hand), and an array that long does not fit in memory.
        let museumIDs: Set<Int64> = try database.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT id FROM organization WHERE type = 'museum'"))
        }
        return index.nodeCounts { id in museumIDs.contains(id) }
    }
}
