import Foundation
import GRDB
import HubGeoModel


/// The document cache of one import's transaction: what ``CachedRemoteReader`` reads and writes
/// through, so that the cache commits or rolls back with the organizations.
package struct DatabaseDocumentCache: DocumentCacheStorage {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    package func entry(_ url: String) throws -> CachedDocument? {
        try DocumentCache.entry(url, in: db)
    }

    package func body(_ url: String) throws -> Data? {
        try DocumentCache.body(url, in: db)
    }

    /// Marks every document unused: the start of an import, which marks those it reads.
    package func beginImport() throws {
        try db.execute(sql: "UPDATE document_cache SET used_by_last_import = 0 WHERE used_by_last_import <> 0")
    }

    /// Stores a body fetched with a 200 (replacing any older copy).
    package func storeBody(_ body: Data, url: String, etag: String?, lastModified: String?, at now: Date) throws {
        let time = RFC3339.string(now)
        try db.execute(sql: """
            INSERT OR REPLACE INTO document_cache (url, status, etag, last_modified, fetched_at, checked_at, body_hash, size,
                body, used_by_last_import)
            VALUES (?, 200, ?, ?, ?, ?, ?, ?, ?, 1)
            """, arguments: [url, etag, lastModified, time, time, CachedDocument.hash(body), body.count, body])
    }

    /// Stores the server's word that `url` does not exist (a 404 or 410).
    package func storeAbsent(url: String, at now: Date) throws {
        let time = RFC3339.string(now)
        try db.execute(sql: """
            INSERT OR REPLACE INTO document_cache (url, status, etag, last_modified, fetched_at, checked_at, body_hash, size,
                body, used_by_last_import)
            VALUES (?, 404, NULL, NULL, ?, ?, NULL, 0, NULL, 1)
            """, arguments: [url, time, time])
    }

    /// A 304: the copy is confirmed as of `now`; new validators, when the server sent any, replace the old.
    package func confirm(url: String, etag: String?, lastModified: String?, at now: Date) throws {
        try db.execute(sql: """
            UPDATE document_cache SET checked_at = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                used_by_last_import = 1
            WHERE url = ?
            """, arguments: [RFC3339.string(now), etag, lastModified, url])
    }

    /// Marks a copy as read by this import, unchanged otherwise.
    package func markUsed(url: String) throws {
        try db.execute(sql: "UPDATE document_cache SET used_by_last_import = 1 WHERE url = ?", arguments: [url])
    }
}
