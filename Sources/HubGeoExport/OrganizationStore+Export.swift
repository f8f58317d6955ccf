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
        return try forEachExportRecord(selection, filter: filter, order: order, remarkLanguage: recordWriter.remarkLanguage) { record in
            try recordWriter.write(record)
        }
    }
}
