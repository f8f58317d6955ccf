import GRDB
import GRDBSQLite
import HubGeoModel
import HubGeoReader

extension OrganizationStore {
    /// As ``forEach(_:filter:order:body:)``, for the exports' byte path: the organizations that
    /// `selection` and `filter` pick, in `order`, as ``ExportRecord``s, each with the remark in
    /// `remarkLanguage` (else that of its localized place, else English, else the first) and,
    /// with `filter.localization`, its cached localized place. The rows, their remarks and their
    /// places come from one statement, one pass; the record is reused, so `body` must not keep
    /// it. Returns how many.
    package func forEachExportRecord(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder,
                             remarkLanguage: String?, body: (ExportRecord) throws -> Void) throws -> Int {
        let localizedColumns: String
        let localizedJoin: String
        var localizedArguments: [(any DatabaseValueConvertible)?] = []
        if let source = filter.localization, try hasGeocodeCache() {
            // The answer cached for the point in the language, from the endpoint at the zoom.
            localizedColumns = OrganizationQuery.localizedColumns
            localizedJoin = OrganizationQuery.localizedJoin
            localizedArguments = OrganizationQuery.localizedJoinArguments(source)
        } else {
            localizedColumns = "NULL, NULL, 0"
            localizedJoin = ""
        }
        let columns = "\(OrganizationRow.exportColumns), r.language, r.value, \(localizedColumns)"
        let remarksJoin = "LEFT JOIN organization_remark r ON r.organization_id = o.id"
        return try database.read { db in
            // Each organization's remarks follow it, by language (the primary key's order). The
            // columns: those of `ExportRowReader.Column`.
            let sql: String
            var arguments: [(any DatabaseValueConvertible)?]
            if selection == .all, order == .stableID, filter.limit == nil, filter.offset == 0, try Self.rowIDOrderIsStableIDOrder(db) {
                // One sequential scan of the table instead of a seek per row.
                sql = "SELECT \(columns) FROM organization o \(remarksJoin) \(localizedJoin)"
                    + (filter.type == nil ? "" : " WHERE +o.type = ?") + " ORDER BY o.id"
                arguments = localizedArguments + (filter.type.map { [$0.rawValue] } ?? [])
            } else {
                // The CROSS JOIN keeps the matches the outer loop, in their order.
                let (matches, matchArguments) = try OrganizationQuery(selection, filter: filter, order: order).matchSQL()
                sql = """
                    SELECT \(columns)
                    FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
                    \(remarksJoin)
                    \(localizedJoin)
                    """
                arguments = matchArguments + localizedArguments
            }
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments))
            let handle = statement.sqliteStatement
            var reader = ExportRowReader(remarkLanguage: remarkLanguage, queryLanguage: filter.language)
            var count = 0
            while true {
                let status = sqlite3_step(handle)
                if status == SQLITE_DONE { break }
                guard status == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                        sql: sql)
                }
                if reader.read(handle) {
                    try body(reader.record)
                    count += 1
                    reader.start(handle)
                }
            }
            if reader.finish() {
                try body(reader.record)
                count += 1
            }
            return count
        }
    }
    /// True when the organizations' row ids ascend with their stable ids, as a new import leaves
    /// them (it inserts in stable id order): then the table's own order is the export's. Walks the
    /// stable id index alone, which holds the row ids.
    static func rowIDOrderIsStableIDOrder(_ db: Database) throws -> Bool {
        let ids = try Int64.fetchCursor(db, sql: "SELECT id FROM organization ORDER BY stable_id")
        var previous = Int64.min
        while let id = try ids.next() {
            if id < previous { return false }
            previous = id
        }
        return true
    }
}
