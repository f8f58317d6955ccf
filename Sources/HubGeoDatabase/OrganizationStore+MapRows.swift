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

    private func mapRow(_ row: Row, localized: Bool) -> MapOrganizationRow {
        var result = MapOrganizationRow(
            rowID: row[0], stableID: row[1], name: row[2], nickName: row[3], type: OrganizationType(rawValue: row[4]) ?? .club,
            town: row[5], localizedTown: nil, localizedCountry: nil, latitude: row[6], longitude: row[7])
        if localized, (row[10] as Bool?) == true {
            result.localizedTown = LocalizedPlace.townShown(answered: (row[8] as String?) ?? "", level1: result.town).town
            result.localizedCountry = row[9]
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
            while let row = try cursor.next() { try body(mapRow(row, localized: localization != nil)) }
        }
    }

    /// The rows of the organizations with these row ids (those that exist), with the cached places
    /// of `localization`.
    package func mapRows(ids: some Sequence<Int64>, localization: LocalizationSource?) throws -> [Int64: MapOrganizationRow] {
        let localization = try localization.flatMap { try hasGeocodeCache() ? $0 : nil }
        var sql = "SELECT \(Self.mapColumns)"
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let localization {
            sql += ", " + OrganizationQuery.localizedColumns
            arguments += OrganizationQuery.localizedJoinArguments(localization)
        }
        sql += "\nFROM organization o"
        if localization != nil { sql += "\n" + OrganizationQuery.localizedJoin }
        sql += "\nWHERE o.id = ?"
        return try database.read { db in
            let statement = try db.cachedStatement(sql: sql)
            var rows: [Int64: MapOrganizationRow] = [:]
            for id in ids where rows[id] == nil {
                guard let row = try Row.fetchOne(statement, arguments: StatementArguments(arguments + [id])) else { continue }
                rows[id] = mapRow(row, localized: localization != nil)
            }
            return rows
        }
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
