import GRDB

/// Bulk loading into the empty `organization` table. SpatiaLite keeps its metadata through
/// triggers on the table: a geometry check, "last modified" timestamps and the R*Tree upkeep,
/// each run for every row. For a bulk load they are set aside, and afterwards restored and the
/// R*Tree filled in one statement. The rows are safe without the checks: hubgeo builds every
/// geometry itself (`MakePoint(lon, lat, 4326)`).
enum SpatialIndex {
    /// Drops the table's triggers and returns their SQL for ``finishBulkLoad(_:restoring:)``.
    static func beginBulkLoad(_ db: Database) throws -> [String] {
        let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'organization'")
        for trigger in triggers {
            try db.execute(sql: "DROP TRIGGER \((trigger["name"] as String).quotedDatabaseIdentifier)")
        }
        return triggers.map { $0["sql"] }
    }

    /// Restores the triggers and indexes the rows loaded meanwhile (a packed R*Tree, see ``RTreePacker``).
    static func finishBulkLoad(_ db: Database, restoring triggers: [String]) throws {
        for sql in triggers { try db.execute(sql: sql) }
        try RTreePacker.build(db, index: "idx_organization_geom", points: "SELECT id, longitude, latitude FROM organization")
    }
}
