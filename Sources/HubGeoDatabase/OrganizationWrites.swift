import GRDB

/// Table `organization_writes`: one row counting the rows of table `organization` written
/// (inserted, changed or deleted) since the last import, kept by triggers on the table
/// (migration "v6 organization writes"). What the import records of the rows it leaves, the
/// stored cluster index (``ClusterIndexTable``) and the counts and extent of its `import_run`
/// row (``ImportStatistics``), holds only while the rows are still those: another SQLite client
/// that deletes the museums (`sqlite3 hub.sqlite "DELETE FROM organization WHERE type = 'museum'"`)
/// fires the triggers, and until the next import the map's clusters are built from the rows
/// and `stats` counts them, instead of showing the deleted museums as clubs.
///
/// One row read per call, whatever the number of organizations: a count (about 5 ms at 200,000)
/// or a digest of the rows at every tile request would not be. The triggers cost an import one
/// small update per row it writes (a bulk load into an empty table sets them aside with the
/// SpatiaLite triggers, see ``SpatialIndex``).
enum OrganizationWrites {
    /// Creates the table and its triggers (a migration of ``DatabaseSchema``). A database made by an
    /// older hubgeo starts at 0 when its stored index counts as many organizations as the table
    /// holds (as its last import left it, as far as can be told), else at 1: its next import
    /// builds the index again.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE organization_writes (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                since_import INTEGER NOT NULL CHECK (since_import >= 0)
            );
            INSERT INTO organization_writes (id, since_import)
                SELECT 1, CASE WHEN (SELECT organizations FROM cluster_index WHERE id = 1) IS (SELECT count(*) FROM organization)
                               THEN 0 ELSE 1 END;
            """)
        for (name, event) in [("organization_writes_insert", "INSERT"), ("organization_writes_update", "UPDATE"),
                              ("organization_writes_delete", "DELETE")] {
            try db.execute(sql: """
                CREATE TRIGGER \(name) AFTER \(event) ON organization
                BEGIN UPDATE organization_writes SET since_import = since_import + 1 WHERE id = 1; END
                """)
        }
    }

    /// Whether the organizations are still those the last import left: nil when they are, else a
    /// number that grows with every write since (a key for what is built from the rows instead).
    ///
    /// A database without the table (made by an older hubgeo, opened read-only since) counts its
    /// rows and compares them with its stored cluster index: a deletion or insertion shows, a
    /// change in place does not.
    static func sinceImport(_ db: Database) throws -> Int64? {
        if try db.tableExists("organization_writes") {
            guard let writes = try Int64.fetchOne(db, sql: "SELECT since_import FROM organization_writes WHERE id = 1")
            else { return 1 }  // the row is gone: nothing is known
            return writes == 0 ? nil : writes
        }
        guard try db.tableExists("cluster_index"), try db.tableExists("organization") else { return nil }
        let rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0
        guard let indexed = try Int64.fetchOne(db, sql: "SELECT organizations FROM cluster_index WHERE id = 1") else { return nil }
        return rows == indexed ? nil : rows + 1
    }

    /// What an import calls last, in its transaction: the rows are now those it recorded.
    static func markImported(_ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO organization_writes (id, since_import) VALUES (1, 0)")
    }

    // MARK: - The remarks, members and overrides (migration "v7 import documents")

    /// The tables whose rows belong to an organization, and whose writes by another program
    /// column `relations_since_import` counts: an import that keeps the organizations without
    /// reading the data (``ImportRecord``) must know that their rows are still those it wrote.
    /// Their triggers are set aside while an import writes (``setAsideRelationTriggers(_:)``), so
    /// that its own writes cost nothing and count for nothing; in its write transaction no other
    /// program can write.
    static let relationTables = ["organization_remark", "organization_member", "level2_override"]

    /// Adds the count and the triggers (a migration of ``DatabaseSchema``).
    static func countRelationWrites(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE organization_writes ADD COLUMN relations_since_import INTEGER NOT NULL DEFAULT 0 "
                       + "CHECK (relations_since_import >= 0)")
        try restoreRelationTriggers(db)
    }

    private static var relationTriggers: [(name: String, sql: String)] {
        relationTables.flatMap { table in
            ["INSERT", "UPDATE", "DELETE"].map { event in
                let name = "\(table)_writes_\(event.lowercased())"
                return (name, "CREATE TRIGGER \(name) AFTER \(event) ON \(table) BEGIN UPDATE organization_writes "
                        + "SET relations_since_import = relations_since_import + 1 WHERE id = 1; END")
            }
        }
    }

    /// Drops the triggers of the ``relationTables`` for the import's writes.
    static func setAsideRelationTriggers(_ db: Database) throws {
        for trigger in relationTriggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.name)") }
    }

    /// Creates them again (or for the first time).
    static func restoreRelationTriggers(_ db: Database) throws {
        for trigger in relationTriggers { try db.execute(sql: trigger.sql) }
    }

    /// Whether another program wrote a remark, member or override row since the last import (or
    /// the count is gone: nothing is known).
    static func relationsWrittenSinceImport(_ db: Database) throws -> Bool {
        try Int64.fetchOne(db, sql: "SELECT relations_since_import FROM organization_writes WHERE id = 1") != 0
    }
}
