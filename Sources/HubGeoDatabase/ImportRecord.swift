import GRDB
import HubGeoModel

/// What an import read, kept with its `import_run` row (migration "v7 import documents"): what it
/// was asked (`import_run.request`, a text the importer makes of the root, the Level 2 files given,
/// the include rule and hubgeo's version and build), every document it read with the digest of its bytes
/// (table `import_document`, in reading order, with what the import took from it) and the warnings
/// its reading gave (table `import_diagnostic`). The next import asked the same reads each
/// document again and hashes it; when every digest is the same, it parses none and keeps the
/// organizations as they are (`Importer`).
package struct ImportRecord: Sendable, Equatable {
    /// One document read (or folder listed) and what the import took from it.
    package struct Document: Sendable, Equatable {
        /// What the import took from a document.
        package enum Role: String, Sendable {
            /// A Level 1 file of the include tree.
            case level1
            /// A Level 2 file merged into its club.
            case level2
            /// A Level 2 file that matches no Level 1 club.
            case orphan
        }

        /// A document read, or the Level 2 files listed beside one.
        package enum Kind: String, Sendable {
            case document
            case listing
        }

        package var kind: Kind
        /// The document's path, http(s) URL or `embedded:NAME`.
        package var location: String
        /// The FNV-1a digest of its bytes (of the names listed); nil: it did not exist.
        package var digest: UInt64?
        /// What the import took from it; nil for a read that gave nothing (a document that does not exist, a listing).
        package var role: Role?
        /// The organizations declared in it (a Level 1 file) or merged from it (a Level 2 file).
        package var organizations: Int

        package init(kind: Kind, location: String, digest: UInt64?, role: Role?, organizations: Int) {
            self.kind = kind
            self.location = location
            self.digest = digest
            self.role = role
            self.organizations = organizations
        }
    }

    package var request: String
    package var documents: [Document]
    /// The warnings the reading gave, sorted.
    package var diagnostics: [Diagnostic]
    /// The clubs and museums the run left (read back with the record; not stored by it).
    package var clubs = 0
    package var museums = 0

    package init(request: String, documents: [Document], diagnostics: [Diagnostic]) {
        self.request = request
        self.documents = documents
        self.diagnostics = diagnostics
    }
}

/// The tables of ``ImportRecord``.
enum ImportRecordTables {
    /// Creates them (a migration of ``DatabaseSchema``). Runs recorded before have no request: the
    /// next import reads every document.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE import_run ADD COLUMN request TEXT;
            CREATE TABLE import_document (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('document', 'listing')),
                location TEXT NOT NULL,
                digest INTEGER,
                role TEXT CHECK (role IN ('level1', 'level2', 'orphan')),
                organizations INTEGER NOT NULL CHECK (organizations >= 0),
                UNIQUE (kind, location)
            );
            CREATE TABLE import_diagnostic (
                id INTEGER PRIMARY KEY,
                severity TEXT NOT NULL,
                rule TEXT NOT NULL,
                file TEXT NOT NULL,
                json_path TEXT NOT NULL,
                line INTEGER,
                column_number INTEGER,
                message TEXT NOT NULL
            );
            """)
    }

    /// The record of the last run, when it was asked `request` and its organizations are still
    /// those it left; else nil. Nil too when anything read is not what an import writes (a
    /// damaged record is not trusted: the import reads everything and records it anew).
    static func last(_ db: Database, request: String) throws -> ImportRecord? {
        guard let run = try Row.fetchOne(db, sql: "SELECT request, clubs, museums FROM import_run ORDER BY id DESC LIMIT 1"),
              run[0] as String? == request, let clubs = run[1] as Int?, let museums = run[2] as Int? else { return nil }
        var documents: [ImportRecord.Document] = []
        for row in try Row.fetchAll(db, sql: "SELECT kind, location, digest, role, organizations FROM import_document ORDER BY id") {
            guard let kind = (row[0] as String?).flatMap(ImportRecord.Document.Kind.init(rawValue:)),
                  let location = row[1] as String?, let organizations = row[4] as Int?, organizations >= 0 else { return nil }
            let role = row[3] as String?
            guard role == nil || ImportRecord.Document.Role(rawValue: role!) != nil else { return nil }
            documents.append(ImportRecord.Document(kind: kind, location: location, digest: (row[2] as Int64?).map(UInt64.init(bitPattern:)),
                                                   role: role.flatMap(ImportRecord.Document.Role.init(rawValue:)),
                                                   organizations: organizations))
        }
        guard !documents.isEmpty else { return nil }
        var diagnostics: [Diagnostic] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT severity, rule, file, json_path, line, column_number, message FROM import_diagnostic ORDER BY id
            """) {
            guard let severity = (row[0] as String?).flatMap(Diagnostic.Severity.init(rawValue:)),
                  let rule = (row[1] as String?).flatMap(DiagnosticRule.init(rawValue:)),
                  let file = row[2] as String?, let jsonPath = row[3] as String?, let message = row[6] as String?
            else { return nil }
            diagnostics.append(Diagnostic(severity: severity, rule: rule, file: file, jsonPath: jsonPath,
                                          line: row[4], column: row[5], message: message))
        }
        var record = ImportRecord(request: request, documents: documents, diagnostics: diagnostics)
        record.clubs = clubs
        record.museums = museums
        return record
    }

    /// Replaces the stored record with `record` of run `run` (nil: none, the next import reads everything).
    static func store(_ record: ImportRecord?, run: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM import_document; DELETE FROM import_diagnostic")
        guard let record else { return }
        try db.execute(sql: "UPDATE import_run SET request = ? WHERE id = ?", arguments: [record.request, run])
        let document = try db.makeStatement(sql: """
            INSERT INTO import_document (kind, location, digest, role, organizations) VALUES (?, ?, ?, ?, ?)
            """)
        for item in record.documents {
            try document.execute(arguments: [item.kind.rawValue, item.location, item.digest.map(Int64.init(bitPattern:)),
                                             item.role?.rawValue, item.organizations])
        }
        let diagnostic = try db.makeStatement(sql: """
            INSERT INTO import_diagnostic (severity, rule, file, json_path, line, column_number, message) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for item in record.diagnostics {
            try diagnostic.execute(arguments: [item.severity.rawValue, item.rule.rawValue, item.file, item.jsonPath,
                                               item.line, item.column, item.message])
        }
    }
}
