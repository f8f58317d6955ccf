import GRDB

/// Table `source_document`: the path, http(s) URL or `embedded:NAME` of each Level 1 document that
/// organizations were read from, once (migration "v8 each fact once"). An organization row refers to
/// its document by `level1_document`, an integer of one byte or two, where it held the path itself
/// (52-58 bytes a row in `make bench`'s trees: 8.9 MB of 199 MB at 200,000). Readers get the path back
/// through ``OrganizationRow/Column/level1Source``'s expression. Not table `import_document`, which
/// every import rewrites with what it read.
///
/// `level1_document` has no REFERENCES clause: deleting a document a row refers to would make SQLite
/// scan the whole organization table for each one (there is no index on the column, which would cost
/// more than the column saves). An import deletes only the documents no row refers to
/// (``removeUnused(_:)``); a row whose document is missing is damaged (``OrganizationRow/damagedRowsSQL``).
///
/// The Level 2 source stays a column of its own (`level2_source`): each Level 2 file belongs to one
/// club, so a reference would save nothing.
enum SourceDocuments {
    /// Migration "v8 each fact once": the documents' table, and in table `organization` the Level 1
    /// path as a reference to it and the fingerprint as two integers (`content_digest` and
    /// `sources_digest`, where the text "v3-" and 32 hex digits took 35 bytes). The rows keep what
    /// they said: a path is moved to the table, a fingerprint parsed (the content digest alone of the
    /// older "v2-" form, 0 for older ones: such a row counts as changed once, as it did), and a value
    /// that is not what hubgeo writes stays NULL, which the next import finds damaged and rewrites.
    /// The count of rows written by another program (``OrganizationWrites``) is left as it was: the
    /// migration's updates are not another program's.
    static func migrate(_ db: Database) throws {
        let writes = try Row.fetchOne(db, sql: "SELECT since_import, relations_since_import FROM organization_writes WHERE id = 1")
        try db.execute(sql: """
            CREATE TABLE source_document (
                id INTEGER PRIMARY KEY,
                location TEXT NOT NULL UNIQUE
            );
            INSERT INTO source_document (location)
                SELECT level1_source FROM organization WHERE typeof(level1_source) = 'text' GROUP BY level1_source ORDER BY min(id);
            ALTER TABLE organization ADD COLUMN level1_document INTEGER;
            ALTER TABLE organization ADD COLUMN content_digest INTEGER;
            ALTER TABLE organization ADD COLUMN sources_digest INTEGER;
            UPDATE organization SET level1_document = (SELECT d.id FROM source_document d WHERE d.location = organization.level1_source)
                WHERE typeof(level1_source) = 'text';
            """)
        var digests: [(id: Int64, content: UInt64, sources: UInt64)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, fingerprint FROM organization WHERE typeof(fingerprint) = 'text'")
        while let row = try rows.next() {
            let (content, sources) = OrganizationStore.Fingerprint.parse(row[1])
            digests.append((row[0], content ?? 0, sources ?? 0))
        }
        let update = try PreparedStatement(db, sql: "UPDATE organization SET content_digest = ?, sources_digest = ? WHERE id = ?")
        for digest in digests {
            update.bind(1, Int64(bitPattern: digest.content))
            update.bind(2, Int64(bitPattern: digest.sources))
            update.bind(3, digest.id)
            try update.execute()
        }
        try db.execute(sql: """
            ALTER TABLE organization DROP COLUMN level1_source;
            ALTER TABLE organization DROP COLUMN fingerprint;
            """)
        if let writes {
            try db.execute(sql: "UPDATE organization_writes SET since_import = ?, relations_since_import = ? WHERE id = 1",
                           arguments: [writes[0] as DatabaseValue, writes[1] as DatabaseValue])
        }
    }

    /// Whether the database has the documents' table: false for one that a hubgeo from before the
    /// migration wrote and a read-only command reads. One look in `sqlite_master`, not GRDB's
    /// `tableExists`, which first reads the whole schema into its cache: 4.2 M instructions, 8 % of
    /// a `near` (callgrind), on every query command's start.
    static func exist(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_document')") ?? false
    }

    /// The SQL expression, in a query of table `organization` as `o`, of a row's Level 1 path (NULL
    /// when its document is missing: a damaged row).
    static let level1SourceExpression = "(SELECT d.location FROM source_document d WHERE d.id = o.level1_document)"

    /// An SQL condition on a row of table `organization` (unaliased): its document is one, with a path.
    static let level1DocumentCondition = """
        typeof(level1_document) = 'integer' AND EXISTS (SELECT 1 FROM source_document d WHERE d.id = level1_document AND typeof(d.location) = 'text')
        """

    /// Deletes the documents no organization refers to (a scan of the table's column: called once
    /// at the end of an import that wrote rows).
    static func removeUnused(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM source_document WHERE id NOT IN (SELECT level1_document FROM organization WHERE level1_document IS NOT NULL)
            """)
    }

    /// The ids of the documents an import refers to, known or added as rows come.
    final class Writer {
        private var ids: [String: Int64] = [:]
        private let insert: PreparedStatement
        private let db: Database
        /// The last location asked, and its id: a Level 1 file's organizations come one after another.
        private var last: (location: String, id: Int64)?

        init(_ db: Database) throws {
            self.db = db
            for row in try Row.fetchAll(db, sql: "SELECT id, location FROM source_document WHERE typeof(location) = 'text'") {
                ids[row[1]] = row[0]
            }
            insert = try PreparedStatement(db, sql: "INSERT INTO source_document (location) VALUES (?)")
        }

        /// The id of the document at `location`, added when the table does not hold it yet.
        func id(_ location: String) throws -> Int64 {
            if let last, last.location == location { return last.id }
            let id: Int64
            if let known = ids[location] {
                id = known
            } else {
                insert.bind(1, location)
                try insert.execute()
                id = db.lastInsertedRowID
                ids[location] = id
            }
            last = (location, id)
            return id
        }
    }
}
