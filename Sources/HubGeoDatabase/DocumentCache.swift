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
package enum DocumentCache {
    // MARK: - Schema

    /// The cache's table: migration "document cache v1" of ``DatabaseSchema/migrator``.
    static func createTable(_ db: Database) throws {
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

    // MARK: - Reading

    private static let columns = "url, status, etag, last_modified, fetched_at, checked_at, body_hash, size, used_by_last_import"

    /// The entry for `url`, without its body.
    static func entry(_ url: String, in db: Database) throws -> CachedDocument? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM document_cache WHERE url = ?", arguments: [url]).map(entry)
    }

    /// The stored body of `url` (nil when none is stored).
    static func body(_ url: String, in db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT body FROM document_cache WHERE url = ? AND status = 200", arguments: [url])
    }

    /// Every cached document, by URL.
    package static func entries(store: OrganizationStore) throws -> [CachedDocument] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(columns) FROM document_cache ORDER BY url").map(entry)
        }
    }

    private static func entry(_ row: Row) -> CachedDocument {
        CachedDocument(url: row["url"], status: row["status"], etag: row["etag"], lastModified: row["last_modified"],
              fetchedAt: RFC3339.date(row["fetched_at"]) ?? Date(timeIntervalSince1970: 0),
              checkedAt: RFC3339.date(row["checked_at"]) ?? Date(timeIntervalSince1970: 0),
              bodyHash: row["body_hash"], size: row["size"], usedByLastImport: row["used_by_last_import"])
    }

    /// Copies every row of `source`'s cache into `db` (replacing rows of the same URL), and the
    /// "used by the last import" marks with them: for a database staged by an import while another
    /// process created the real one.
    package static func copy(from source: OrganizationStore, into cache: DatabaseDocumentCache) throws {
        let rows = try source.database.read { sourceDB in
            try Row.fetchAll(sourceDB, sql: "SELECT \(columns), body FROM document_cache")
        }
        try cache.beginImport()
        for row in rows {
            try cache.db.execute(sql: """
                INSERT OR REPLACE INTO document_cache (\(columns), body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(row.databaseValues))
        }
    }
}
