import GRDB

/// Table `organization_remark`'s layout, and its index set aside while a new import loads it.
enum RemarkTable {
    /// The unique index of (organization_id, language): the remarks of an organization by language.
    static let index = "organization_remark_key"

    /// Makes `organization_remark` a table with a row id and a unique index on (organization_id,
    /// language) (part of migration "v8 each fact once"), where "v3 fewer indexes" had made it one
    /// B-tree without a row id. A B-tree without row ids keeps at most about 1,000 bytes of a row in
    /// its page and puts the rest on an overflow page of its own: a remark of 1,000 to 2,500 bytes
    /// (`make bench`'s scattered shape, one organization in ten, in two languages) took a page of
    /// 4 KiB for its last few hundred bytes, and the table was 229.7 MB for 106 MB of text, half
    /// empty. With a row id a row of up to about 4,000 bytes stays in its page: 135.6 MB and an index
    /// of 5.9 MB (made after the rows, packed); the shapes with short remarks stay at their size
    /// (clustered: 66.9 MB against 60.7 and 5.9).
    /// The rows keep their order, and the triggers that count another program's writes are made again.
    static func keepValuesInTheirRows(_ db: Database) throws {
        try OrganizationWrites.setAsideRelationTriggers(db)
        try db.execute(sql: """
            CREATE TABLE organization_remark_v8 (
                organization_id INTEGER NOT NULL REFERENCES organization(id) ON DELETE CASCADE,
                language TEXT NOT NULL,
                value TEXT NOT NULL
            );
            INSERT INTO organization_remark_v8 (organization_id, language, value)
                SELECT organization_id, language, value FROM organization_remark ORDER BY organization_id, language;
            DROP TABLE organization_remark;
            ALTER TABLE organization_remark_v8 RENAME TO organization_remark;
            CREATE UNIQUE INDEX \(index) ON organization_remark (organization_id, language);
            """)
        try OrganizationWrites.restoreRelationTriggers(db)
    }

    /// Drops the index for a bulk load into the empty table of organizations (a remark left there
    /// belongs to none: it goes too). Two B-trees written per remark made a new import of 200,000
    /// organizations about 6 % slower (user time, clustered shape); one index made at the end is
    /// also packed full.
    static func beginBulkLoad(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM organization_remark; DROP INDEX IF EXISTS \(index)")
    }

    /// Makes the index of the rows loaded meanwhile (throws, and the import rolls back, when an
    /// organization has two remarks in one language).
    static func finishBulkLoad(_ db: Database) throws {
        try db.execute(sql: "CREATE UNIQUE INDEX \(index) ON organization_remark (organization_id, language)")
    }
}
