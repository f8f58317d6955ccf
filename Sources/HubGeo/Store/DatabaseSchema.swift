import GRDB

/// The organization tables of a hubgeo database and how to create or upgrade them (the geocode
/// cache owns its own: ``GeocodeCache``).
enum DatabaseSchema {
    /// SpatiaLite's metadata must be created outside a transaction: `InitSpatialMetaData(1, ...)`
    /// runs its own, and without the `1` it takes seconds.
    static func initializeSpatialMetadata(_ db: Database) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'spatial_ref_sys'") ?? false
        if !exists {
            try db.execute(sql: "SELECT InitSpatialMetaData(1, 'WGS84')")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 organizations") { db in
            try db.execute(sql: """
                CREATE TABLE organization (
                    id INTEGER PRIMARY KEY,
                    stable_id TEXT NOT NULL UNIQUE,
                    type TEXT NOT NULL CHECK (type IN ('club', 'museum')),
                    town TEXT NOT NULL,
                    full_name TEXT NOT NULL,
                    nick_name TEXT NOT NULL,
                    latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    website TEXT,
                    wikipedia TEXT,
                    level2_url TEXT,
                    maintainer_email TEXT,
                    fotobond_number INTEGER,
                    has_level2 INTEGER NOT NULL DEFAULT 0,
                    member_count INTEGER,
                    level1_source TEXT NOT NULL,
                    level2_source TEXT,
                    search_key TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    UNIQUE (town, full_name)
                );
                SELECT AddGeometryColumn('organization', 'geom', 4326, 'POINT', 'XY', 1);
                SELECT CreateSpatialIndex('organization', 'geom');
                CREATE INDEX organization_type ON organization(type);
                CREATE TABLE organization_remark (
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    language TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (organization_id, language)
                );
                CREATE TABLE organization_member (
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    given_name TEXT NOT NULL,
                    infix_name TEXT NOT NULL,
                    family_name TEXT NOT NULL,
                    is_former INTEGER NOT NULL,
                    is_deceased INTEGER NOT NULL,
                    is_prospective INTEGER NOT NULL,
                    is_honorary INTEGER NOT NULL,
                    PRIMARY KEY (organization_id, position)
                );
                CREATE TABLE level2_override (
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    field TEXT NOT NULL,
                    level1_value TEXT,
                    level2_value TEXT NOT NULL,
                    PRIMARY KEY (organization_id, field)
                );
                CREATE TABLE import_run (
                    id INTEGER PRIMARY KEY,
                    source TEXT NOT NULL,
                    imported_at TEXT NOT NULL,
                    organizations INTEGER NOT NULL,
                    added INTEGER NOT NULL,
                    changed INTEGER NOT NULL,
                    removed INTEGER NOT NULL
                );
                """)
        }
        return migrator
    }
}
