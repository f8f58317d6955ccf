import HubGeoDatabase

/// A writer that takes ``ExportRecord``s: the byte path from the database to the output.
protocol ExportRecordWriter: OrganizationWriter {
    /// The language that picks the remark (see ``ExportProperties``).
    var remarkLanguage: String? { get }
    func write(_ record: ExportRecord) throws
}

extension GeoJSONWriter: ExportRecordWriter {}
extension KMLWriter: ExportRecordWriter {}

extension OrganizationReading where Self: ~Copyable {
    /// Writes the organizations that `selection` and `filter` pick through `writer`, in `order`,
    /// and returns how many. `begin()` and `finish()` are the caller's. For ``GeoJSONWriter``
    /// and ``KMLWriter`` the rows, their remarks and their cached localized places (with
    /// `filter.language`) come from one statement, one pass, straight into the writer's bytes;
    /// memory stays flat whatever the number of organizations.
    @discardableResult
    public func export(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder = .stableID,
                       to writer: OrganizationWriter) throws -> Int {
        guard let recordWriter = writer as? ExportRecordWriter else {
            var count = 0
            try forEach(selection, filter: filter, order: order) { match in
                try writer.write(match)
                count += 1
            }
            return count
        }
        return try forEachOrderedExportRecord(selection, filter: filter, order: order, remarkLanguage: recordWriter.remarkLanguage) { record in
            try recordWriter.write(record)
        }
    }

    /// The export records of `selection` and `filter` in `order` (HubGeoDatabase's
    /// `forEachExportRecord`). A whole table (or a search, which reads all of it) in stable id
    /// order, unpaged, is read in the table's own order and put in stable id order by
    /// ``StableIDOrdering``: one pass over the pages instead of a seek per row (see there); `body`
    /// is then called once the table is read. Returns how many.
    func forEachOrderedExportRecord(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder,
                                    remarkLanguage: String?, body: (ExportRecord) throws -> Void) throws -> Int {
        guard exportCanReadInStorageOrder(selection, filter: filter, order: order) else {
            return try forEachExportRecord(selection, filter: filter, order: order, remarkLanguage: remarkLanguage, body: body)
        }
        var ordering = StableIDOrdering()
        _ = try forEachExportRecord(selection, filter: filter, order: order, remarkLanguage: remarkLanguage, inStorageOrder: true) {
            try ordering.add($0)
        }
        let count = ordering.count
        try ordering.drain(body)
        return count
    }
}
