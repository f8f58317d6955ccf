import CPOSIX
import Foundation
import GRDB
import GRDBSQLite
import HubGeoModel


/// The organization tables of a hubgeo database and how to create or upgrade them (the geocode
/// cache owns its own: ``GeocodeCache``).
///
/// One raw SQLite call, `sqlite3_db_filename`, in ``checkSpatiaLite(_:_:)``: GRDB's `Database`
/// (all that a migration is given) has no API for the file it is connected to.
enum DatabaseSchema {
    /// SpatiaLite's metadata must be created outside a transaction: `InitSpatialMetaData(1, ...)`
    /// runs its own, and without the `1` it takes seconds.
    static func initializeSpatialMetadata(_ db: Database) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'spatial_ref_sys'") ?? false
        if !exists {
            try checkSpatiaLite(db, "InitSpatialMetaData(1, 'WGS84')")
        }
    }

    /// Runs a SpatiaLite set-up function, which returns 1, or 0 instead of failing. Its SQLite
    /// error is not passed on: when the file system holding the database has (nearly) no space
    /// left, the failure is reported as SQLITE_FULL, else as the function's failure.
    static func checkSpatiaLite(_ db: Database, _ call: String) throws {
        let sql = "SELECT \(call)"
        guard try Int.fetchOne(db, sql: sql) != 1 else { return }
        let path = db.sqliteConnection.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) } ?? ""
        if spaceIsExhausted(beside: path) {
            throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full (SpatiaLite's \(call) failed)", sql: sql)
        }
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "SpatiaLite's \(call) failed", sql: sql)
    }

    /// True when the file system holding `path` has less than 1 MiB left for this user.
    static func spaceIsExhausted(beside path: String) -> Bool {
        var volume = hubgeo_volume_status()
        let directory = (path as NSString).deletingLastPathComponent
        guard hubgeo_statvfs(directory.isEmpty ? "." : directory, &volume) == 0 else { return false }
        return volume.available_bytes < 1 << 20
    }

    /// Where a database stands, found without writing to it.
    enum State: Equatable {
        /// Every migration applied, with the spatial metadata and the geometry column.
        case current
        /// Empty, or an older schema that the migrations bring up to date (and the application id stamps).
        case needsSetUp
        /// Created only in part: what is missing.
        case halfMade(String)
        /// Migrated by a newer hubgeo: the migrations this one does not know. Never written (an
        /// older hubgeo rewrote the cluster index in its own format, and would write rows by
        /// rules that are no longer the file's); read-only queries still read it, and refuse
        /// any value they do not expect as damaged.
        case newer([String])
    }

    static func state(_ db: Database) throws -> State {
        let unknown = try unknownMigrations(db)
        if !unknown.isEmpty { return .newer(unknown) }
        let hasMetadata = try db.tableExists("spatial_ref_sys")
        let hasOrganization = try db.tableExists("organization")
        var hasGeometry = false
        if hasOrganization && hasMetadata {
            hasGeometry = try Bool.fetchOne(db, sql: """
                SELECT count(*) > 0 FROM geometry_columns WHERE f_table_name = 'organization' AND f_geometry_column = 'geom'
                """) ?? false
        }
        if hasOrganization && !hasGeometry {
            return .halfMade(hasMetadata ? "table organization has no geometry column geom" : "the SpatiaLite metadata is missing")
        }
        guard hasMetadata, try Int32.fetchOne(db, sql: "PRAGMA application_id") == DatabaseFile.applicationID,
              try migrator.hasCompletedMigrations(db)
        else { return .needsSetUp }
        return .current
    }

    /// The migrations applied to the database that this hubgeo does not know (a newer one's), sorted.
    static func unknownMigrations(_ db: Database) throws -> [String] {
        let migrator = self.migrator
        return try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
    }

    /// Applies the migrations the database lacks (``migrator``). A database whose organizations were
    /// written before migration "v8 each fact once" is vacuumed once after it: the migration drops two
    /// columns of every row, which leaves each page of the table emptier but frees none, and a
    /// vacuum gives the space back (a `make bench` database of 200,000: 201.3 MB before, 202.8 MB
    /// migrated, 176.7 MB vacuumed, in about 1 s). A vacuum that fails (no room for its copy on a full
    /// disk) leaves the migrated database as it is: it is valid, only larger.
    static func migrate(_ writer: any DatabaseWriter) throws {
        let compacts = try writer.read { db in
            let applied = try migrator.appliedIdentifiers(db)
            return try applied.contains("v1 organizations") && !applied.contains("v8 each fact once")
                && (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM organization)") ?? false)
        }
        try migrator.migrate(writer)
        if compacts {
            try? writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        }
    }

    /// The one migrator of every table in the file: the organizations', the geocode cache's and
    /// the document cache's, in the order they were first made (a database made by an older
    /// hubgeo has a prefix of each owner's migrations applied; GRDB applies the rest).
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
                """)
            // SpatiaLite's functions return 0 instead of failing (on a full disk too): check them, so
            // that the migration fails, rather than leave a table without its geometry.
            for call in ["AddGeometryColumn('organization', 'geom', 4326, 'POINT', 'XY', 1)", "CreateSpatialIndex('organization', 'geom')"] {
                try checkSpatiaLite(db, call)
            }
            try db.execute(sql: """
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
        migrator.registerMigration("v2 geocode cache", migrate: GeocodeCache.createTables)
        migrator.registerMigration("v3 fewer indexes") { db in
            // No query uses the type index (they filter with `+o.type`, to walk the stable id
            // index instead). Remarks, members and overrides are read only by their primary key:
            // without a rowid they are one B-tree each instead of two, which halves their inserts.
            try db.execute(sql: "DROP INDEX IF EXISTS organization_type")
            for (table, columns, key) in [
                ("organization_remark", """
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    language TEXT NOT NULL,
                    value TEXT NOT NULL
                    """, "organization_id, language"),
                ("organization_member", """
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    given_name TEXT NOT NULL,
                    infix_name TEXT NOT NULL,
                    family_name TEXT NOT NULL,
                    is_former INTEGER NOT NULL,
                    is_deceased INTEGER NOT NULL,
                    is_prospective INTEGER NOT NULL,
                    is_honorary INTEGER NOT NULL
                    """, "organization_id, position"),
                ("level2_override", """
                    organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                    field TEXT NOT NULL,
                    level1_value TEXT,
                    level2_value TEXT NOT NULL
                    """, "organization_id, field"),
            ] {
                try db.execute(sql: """
                    CREATE TABLE \(table)_v3 (\(columns), PRIMARY KEY (\(key))) WITHOUT ROWID;
                    INSERT INTO \(table)_v3 SELECT * FROM \(table);
                    DROP TABLE \(table);
                    ALTER TABLE \(table)_v3 RENAME TO \(table);
                    """)
            }
        }
        migrator.registerMigration("geocode cache v3: names of countries and towns", migrate: GeocodeCache.createNameTables)
        migrator.registerMigration("document cache v1", migrate: DocumentCache.createTable)
        migrator.registerMigration("v4 cluster index", migrate: ClusterIndexTable.create)
        migrator.registerMigration("v5 import statistics", migrate: ImportStatistics.addColumns)
        migrator.registerMigration("v6 organization writes", migrate: OrganizationWrites.create)
        migrator.registerMigration("geocode cache v4: forward searches", migrate: GeocodeCache.createSearchTable)
        migrator.registerMigration("v7 import documents") { db in
            try ImportRecordTables.create(db)
            try OrganizationWrites.countRelationWrites(db)
        }
        migrator.registerMigration("v8 each fact once") { db in
            try SourceDocuments.migrate(db)
            try RemarkTable.keepValuesInTheirRows(db)
        }
        return migrator
    }
}
