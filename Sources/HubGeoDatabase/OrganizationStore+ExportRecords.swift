import GRDB
import GRDBSQLite

extension OrganizationReading where Self: ~Copyable {
    /// True when the export records of `selection`, `filter` and `order` may be read in the
    /// table's own order (``forEachExportRecord(_:filter:order:remarkLanguage:inStorageOrder:body:)``)
    /// for the caller to put in stable id order itself (HubGeoExport's `StableIDOrdering`, which
    /// says why: one pass over the pages instead of a seek per row): a whole table, or a search
    /// (which reads all of it), in stable id order, unpaged.
    package func exportCanReadInStorageOrder(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder) -> Bool {
        switch selection {
        case .all, .search: order == .stableID && filter.limit == nil && filter.offset == 0
        case .within, .near: false
        }
    }

    /// As ``forEach(_:filter:order:body:)``, for the exports' byte path: the organizations that
    /// `selection` and `filter` pick, in `order` (with `inStorageOrder`, where
    /// ``exportCanReadInStorageOrder(_:filter:order:)`` allows it, in the table's own order), as
    /// ``ExportRecord``s, each with the remark in `remarkLanguage` (else that of its localized
    /// place, else English, else the first) and, with `filter.localization`, its cached localized
    /// place. The rows, their remarks and their places come from one statement, one pass; the
    /// record is reused, so `body` must not keep it. Returns how many.
    package func forEachExportRecord(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder,
                                     remarkLanguage: String?, inStorageOrder: Bool = false,
                                     body: (ExportRecord) throws -> Void) throws -> Int {
        var query = OrganizationQuery(selection, filter: filter, order: order)
        query.inStorageOrder = inStorageOrder && exportCanReadInStorageOrder(selection, filter: filter, order: order)
        return try forEachExportRecord(query, remarkLanguage: remarkLanguage, body: body)
    }

    /// The records of `query`, in its order. The statement is prepared by GRDB and stepped with
    /// raw `sqlite3_step`, because ``ExportRowReader`` reads its columns in place (see there): GRDB's
    /// cursors step it only to hand out a `Row`.
    private func forEachExportRecord(_ query: OrganizationQuery, remarkLanguage: String?, body: (ExportRecord) throws -> Void) throws -> Int {
        let filter = query.filter
        let (matches, matchArguments) = try query.matchSQL()
        var arguments = matchArguments
        let localizedColumns: String
        let localizedJoin: String
        if let source = filter.localization, try hasGeocodeCache() {
            // The answer cached for the point in the language, from the endpoint at the zoom.
            localizedColumns = OrganizationQuery.localizedColumns
            localizedJoin = OrganizationQuery.localizedJoin
            arguments += OrganizationQuery.localizedJoinArguments(source)
        } else {
            localizedColumns = "NULL, NULL, 0"
            localizedJoin = ""
        }
        // The CROSS JOIN keeps the matches the outer loop, in their order; each organization's
        // remarks follow it, by language (the primary key's order). The columns: those of
        // `ExportRowReader.Column`.
        let sql = """
            SELECT \(OrganizationRow.exportColumns), r.language, r.value, \(localizedColumns)
            FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
            LEFT JOIN organization_remark r ON r.organization_id = o.id
            \(localizedJoin)
            """
        return try database.read { db in
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
                if try reader.read(handle) {
                    try body(reader.record)
                    count += 1
                    try reader.start(handle)
                }
            }
            if reader.finish() {
                try body(reader.record)
                count += 1
            }
            return count
        }
    }
}

