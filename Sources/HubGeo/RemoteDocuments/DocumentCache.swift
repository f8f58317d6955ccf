import Foundation
import GRDB
import HubGeoModel

/// The cache of the Level 1 and Level 2 documents fetched by URL, kept in the hubgeo database
/// (table `document_cache`, one row per URL), so that a re-import can ask the server whether a
/// document changed (`If-None-Match`, `If-Modified-Since`) and reuse the stored body on a `304`,
/// skip the request for a young enough copy, or import with no network at all.
///
/// A row holds the last good answer for its URL: a body (status 200) with its validators, hash
/// and size, or the server's word that the document does not exist (status 404, no body). Its
/// writes happen inside the import's transaction (see ``Importer``): the cache and the
/// organizations always hold the same import, old or new.
public enum DocumentCache {
    /// One cached document.
    public struct Entry: Sendable, Equatable {
        public var url: String
        /// 200: the body is held; 404: the server said the document does not exist.
        public var status: Int
        public var etag: String?
        public var lastModified: String?
        /// When the body was last downloaded (a 200).
        public var fetchedAt: Date
        /// When the server last vouched for the copy (a 200, or a 304 to a conditional request).
        public var checkedAt: Date
        /// FNV-1a 64 of the body, 16 hex digits (nil for a 404).
        public var bodyHash: String?
        public var size: Int
        /// True when the last successful import read this document.
        public var usedByLastImport: Bool

        /// True when the entry holds a body.
        public var hasBody: Bool { status == 200 }

        /// Seconds since the server last vouched for the copy.
        public func age(at now: Date) -> TimeInterval { now.timeIntervalSince(checkedAt) }
    }

    // MARK: - Schema

    /// The cache's migration (GRDB's migration log is shared with the store's and the geocode
    /// cache's; each migrator ignores the others' identifiers).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("document cache v1") { db in
            try db.execute(sql: """
                CREATE TABLE document_cache (
                    url TEXT PRIMARY KEY NOT NULL,
                    status INTEGER NOT NULL CHECK (status IN (200, 404)),
                    etag TEXT,
                    last_modified TEXT,
                    fetched_at TEXT NOT NULL,
                    checked_at TEXT NOT NULL,
                    body_hash TEXT,
                    size INTEGER NOT NULL,
                    body BLOB,
                    used_by_last_import INTEGER NOT NULL DEFAULT 0
                );
                """)
        }
        return migrator
    }

    static func migrate(_ writer: any DatabaseWriter) throws {
        try migrator.migrate(writer)
    }

    // MARK: - Reading

    private static let columns = "url, status, etag, last_modified, fetched_at, checked_at, body_hash, size, used_by_last_import"

    /// The entry for `url`, without its body.
    static func entry(_ url: String, in db: Database) throws -> Entry? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM document_cache WHERE url = ?", arguments: [url]).map(entry)
    }

    /// The stored body of `url` (nil when none is stored).
    static func body(_ url: String, in db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT body FROM document_cache WHERE url = ? AND status = 200", arguments: [url])
    }

    /// Every cached document, by URL.
    public static func entries(store: OrganizationStore) throws -> [Entry] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(columns) FROM document_cache ORDER BY url").map(entry)
        }
    }

    private static func entry(_ row: Row) -> Entry {
        Entry(url: row["url"], status: row["status"], etag: row["etag"], lastModified: row["last_modified"],
              fetchedAt: RFC3339.date(row["fetched_at"]) ?? Date(timeIntervalSince1970: 0),
              checkedAt: RFC3339.date(row["checked_at"]) ?? Date(timeIntervalSince1970: 0),
              bodyHash: row["body_hash"], size: row["size"], usedByLastImport: row["used_by_last_import"])
    }

    // MARK: - Writing (inside the import's transaction)

    /// Marks every document unused: the start of an import, which marks those it reads.
    static func beginImport(in db: Database) throws {
        try db.execute(sql: "UPDATE document_cache SET used_by_last_import = 0 WHERE used_by_last_import <> 0")
    }

    /// Stores a body fetched with a 200 (replacing any older copy).
    static func storeBody(_ body: Data, url: String, etag: String?, lastModified: String?, at now: Date, in db: Database) throws {
        let time = RFC3339.string(now)
        try db.execute(sql: """
            INSERT OR REPLACE INTO document_cache (url, status, etag, last_modified, fetched_at, checked_at, body_hash, size,
                body, used_by_last_import)
            VALUES (?, 200, ?, ?, ?, ?, ?, ?, ?, 1)
            """, arguments: [url, etag, lastModified, time, time, hash(body), body.count, body])
    }

    /// Stores the server's word that `url` does not exist (a 404 or 410).
    static func storeAbsent(url: String, at now: Date, in db: Database) throws {
        let time = RFC3339.string(now)
        try db.execute(sql: """
            INSERT OR REPLACE INTO document_cache (url, status, etag, last_modified, fetched_at, checked_at, body_hash, size,
                body, used_by_last_import)
            VALUES (?, 404, NULL, NULL, ?, ?, NULL, 0, NULL, 1)
            """, arguments: [url, time, time])
    }

    /// A 304: the copy is confirmed as of `now`; new validators, when the server sent any, replace the old.
    static func confirm(url: String, etag: String?, lastModified: String?, at now: Date, in db: Database) throws {
        try db.execute(sql: """
            UPDATE document_cache SET checked_at = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                used_by_last_import = 1
            WHERE url = ?
            """, arguments: [RFC3339.string(now), etag, lastModified, url])
    }

    /// Marks a copy as read by this import, unchanged otherwise.
    static func markUsed(url: String, in db: Database) throws {
        try db.execute(sql: "UPDATE document_cache SET used_by_last_import = 1 WHERE url = ?", arguments: [url])
    }

    /// Copies every row of `source`'s cache into `db` (replacing rows of the same URL), and the
    /// "used by the last import" marks with them: for a database staged by an import while another
    /// process created the real one.
    static func copy(from source: OrganizationStore, into db: Database) throws {
        let rows = try source.database.read { sourceDB in
            try Row.fetchAll(sourceDB, sql: "SELECT \(columns), body FROM document_cache")
        }
        try beginImport(in: db)
        for row in rows {
            try db.execute(sql: """
                INSERT OR REPLACE INTO document_cache (\(columns), body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(row.databaseValues))
        }
    }

    /// The hash stored for a body: FNV-1a 64, as 16 hex digits (change detection, not security).
    static func hash(_ body: Data) -> String {
        FNV1a.hex(body.withUnsafeBytes { FNV1a.hash($0) })
    }
}
