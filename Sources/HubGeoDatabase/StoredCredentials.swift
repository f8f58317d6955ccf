import GRDB
import HubGeoModel

/// The user and password in URLs that an older hubgeo stored: the document cache's keys and the
/// sources of past imports. Each import removes them (``URLRedaction``), inside its transaction;
/// the organizations' own sources are rewritten by the import itself.
enum StoredCredentials {
    static func remove(in db: Database) throws {
        for url in try String.fetchAll(db, sql: "SELECT url FROM document_cache WHERE url LIKE '%@%'") {
            let redacted = URLRedaction.redacted(url)
            guard redacted != url else { continue }
            // A copy already stored under the redacted URL is the newer one.
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document_cache WHERE url = ?)", arguments: [redacted]) == true {
                try db.execute(sql: "DELETE FROM document_cache WHERE url = ?", arguments: [url])
            } else {
                try db.execute(sql: "UPDATE document_cache SET url = ? WHERE url = ?", arguments: [redacted, url])
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, source FROM import_run WHERE source LIKE '%@%'") {
            let source: String = row["source"]
            let redacted = URLRedaction.redacted(source)
            guard redacted != source else { continue }
            try db.execute(sql: "UPDATE import_run SET source = ? WHERE id = ?", arguments: [redacted, row["id"] as Int64])
        }
    }
}
