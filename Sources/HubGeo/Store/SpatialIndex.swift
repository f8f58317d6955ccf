import GRDB

/// The R*Tree index on `organization.geom`. A bulk load drops it and builds it once at the
/// end, which is much faster than keeping it up to date row by row.
enum SpatialIndex {
    static func drop(_ db: Database) throws {
        try db.execute(sql: "SELECT DisableSpatialIndex('organization', 'geom')")
        try db.execute(sql: "DROP TABLE IF EXISTS idx_organization_geom")
    }

    /// Creates the index and fills it from the rows already there.
    static func create(_ db: Database) throws {
        guard try Int.fetchOne(db, sql: "SELECT CreateSpatialIndex('organization', 'geom')") == 1 else {
            throw DatabaseError(message: "SpatiaLite could not create the spatial index on organization.geom")
        }
    }
}
