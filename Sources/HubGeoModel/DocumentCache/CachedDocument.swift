import Foundation

/// One document of the document cache: the last good answer for its URL, a body (status 200)
/// with its validators, hash and size, or the server's word that the document does not exist
/// (status 404, no body).
package struct CachedDocument: Sendable, Equatable {
    package var url: String
    /// 200: the body is held; 404: the server said the document does not exist.
    package var status: Int
    package var etag: String?
    package var lastModified: String?
    /// When the body was last downloaded (a 200).
    package var fetchedAt: Date
    /// When the server last vouched for the copy (a 200, or a 304 to a conditional request).
    package var checkedAt: Date
    /// FNV-1a 64 of the body, 16 hex digits (nil for a 404).
    package var bodyHash: String?
    package var size: Int
    /// True when the last successful import read this document.
    package var usedByLastImport: Bool

    package init(url: String, status: Int, etag: String?, lastModified: String?, fetchedAt: Date, checkedAt: Date,
                bodyHash: String?, size: Int, usedByLastImport: Bool) {
        self.url = url
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.checkedAt = checkedAt
        self.bodyHash = bodyHash
        self.size = size
        self.usedByLastImport = usedByLastImport
    }

    /// True when the entry holds a body.
    package var hasBody: Bool { status == 200 }

    /// Seconds since the server last vouched for the copy.
    package func age(at now: Date) -> TimeInterval { now.timeIntervalSince(checkedAt) }

    /// The hash stored for a body: FNV-1a 64, as 16 hex digits (change detection, not security).
    package static func hash(_ body: Data) -> String {
        FNV1a.hex(body.withUnsafeBytes { FNV1a.hash($0) })
    }
}
