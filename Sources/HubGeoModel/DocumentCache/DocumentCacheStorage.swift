import Foundation

/// Where the document cache keeps its copies, as ``CachedRemoteReader`` needs it: the database of
/// the import that reads the documents (its writes commit or roll back with the organizations).
/// The import passes it in explicitly for one load
/// (``CachedRemoteReader/session(cache:now:)``).
package protocol DocumentCacheStorage {
    /// Marks every document unused: the start of an import, which marks those it reads.
    func beginImport() throws
    /// The entry for `url`, without its body.
    func entry(_ url: String) throws -> CachedDocument?
    /// The stored body of `url` (nil when none is stored).
    func body(_ url: String) throws -> Data?
    /// Stores a body fetched with a 200 (replacing any older copy).
    func storeBody(_ body: Data, url: String, etag: String?, lastModified: String?, at now: Date) throws
    /// Stores the server's word that `url` does not exist (a 404 or 410).
    func storeAbsent(url: String, at now: Date) throws
    /// A 304: the copy is confirmed as of `now`; new validators, when the server sent any, replace the old.
    func confirm(url: String, etag: String?, lastModified: String?, at now: Date) throws
    /// Marks a copy as read by this import, unchanged otherwise.
    func markUsed(url: String) throws
}
