import GRDB
import GRDBSQLite
import HubGeoModel
import HubGeoReader

extension OrganizationStore {
    /// As ``forEach(_:filter:order:body:)``, for the exports' byte path: the organizations that
    /// `selection` and `filter` pick, in `order`, as ``ExportRecord``s, each with the remark in
    /// `remarkLanguage` (else that of its localized place, else English, else the first) and,
    /// with `filter.localization`, its cached localized place. The rows, their remarks and their
    /// places come in one pass; the record is reused, so `body` must not keep it. Returns how many.
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
        return try database.read { db in
            // The columns: those of `ExportRowReader`, the remark's language and value after the export columns.
            if selection == .all, order == .stableID, filter.limit == nil, filter.offset == 0, try Self.rowIDOrderIsStableIDOrder(db) {
                // One sequential scan of the table instead of a seek per row, and one of the
                // remarks beside it (both by organization id): a merge join.
                let sql = "SELECT \(OrganizationRow.exportColumns), NULL, NULL, \(localizedColumns) FROM organization o \(localizedJoin)"
                    + (filter.type == nil ? "" : " WHERE +o.type = ?") + " ORDER BY o.id"
                let rows = try ExportStatement(db, sql: sql, arguments: localizedArguments + (filter.type.map { [$0.rawValue] } ?? []))
                let remarks = try ExportStatement(db, sql: "SELECT organization_id, language, value FROM organization_remark ORDER BY organization_id, language")
                var hasRemark = try remarks.step()
                var reader = ExportRowReader(remarkLanguage: remarkLanguage, queryLanguage: filter.language)
                var count = 0
                while try rows.step() {
                    let id = reader.start(rows.handle)
                    while hasRemark, sqlite3_column_int64(remarks.handle, 0) <= id {
                        if sqlite3_column_int64(remarks.handle, 0) == id {
                            reader.addRemark(language: ExportRowReader.text(remarks.handle, 1), value: ExportRowReader.text(remarks.handle, 2))
                        }
                        hasRemark = try remarks.step()
                    }
                    _ = reader.finish()
                    try body(reader.record)
                    count += 1
                }
                return count
            }
            // The CROSS JOIN keeps the matches the outer loop, in their order; each organization's
            // remarks follow it, by language (the primary key's order).
            let (matches, matchArguments) = try OrganizationQuery(selection, filter: filter, order: order).matchSQL()
            let rows = try ExportStatement(db, sql: """
                SELECT \(OrganizationRow.exportColumns), r.language, r.value, \(localizedColumns)
                FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
                LEFT JOIN organization_remark r ON r.organization_id = o.id
                \(localizedJoin)
                """, arguments: matchArguments + localizedArguments)
            var reader = ExportRowReader(remarkLanguage: remarkLanguage, queryLanguage: filter.language)
            var count = 0
            while try rows.step() {
                if reader.read(rows.handle) {
                    try body(reader.record)
                    count += 1
                    reader.start(rows.handle)
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

/// A statement the export steps through with SQLite's C API, its rows read in place.
private struct ExportStatement {
    let statement: Statement
    let handle: SQLiteStatement
    private let db: Database

    init(_ db: Database, sql: String, arguments: [(any DatabaseValueConvertible)?] = []) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        try statement.setArguments(StatementArguments(arguments))
        handle = statement.sqliteStatement
    }

    /// Moves to the next row; false when there is none.
    func step() throws -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_DONE { return false }
        guard status == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
        return true
    }
}
