import Foundation

/// What an import did with each document fetched by URL: fetched, confirmed unchanged by the
/// server (304), served from the document cache, or known not to exist; and the bytes it moved.
public struct DocumentTraffic: Sendable {
    /// What happened to one document.
    public enum Outcome: String, Sendable, Codable {
        /// Downloaded whole (a 200).
        case fetched
        /// The server answered 304 to a conditional request: the cached body was used.
        case notModified = "not-modified"
        /// Served from the cache without a request (`--max-age`, `--offline`).
        case cached
        /// The request failed (5xx, timeout, reset, a malformed new copy): the last good copy was used.
        case kept
        /// The server said it does not exist (404/410), or the cache says so.
        case absent
    }

    /// One document fetched by URL.
    public struct Document: Sendable {
        /// The document's URL.
        public var url: String
        /// What happened to it.
        public var outcome: Outcome
        /// How long ago the server last vouched for the copy used (for a copy from the cache), in seconds.
        public var age: TimeInterval?
        /// True when this import read a body (or an absence) that differs from the cached one, or none was cached.
        public var changed: Bool
    }

    /// Every document fetched by URL, in reading order.
    public var documents: [Document] = []
    /// One line per document whose request failed and whose last good copy was used.
    public var warnings: [String] = []
    /// Requests sent (each document at most one; redirects inside it not counted).
    public var requests = 0
    /// Bytes of the bodies received.
    public var bytesTransferred = 0

    /// No traffic.
    public init() {}

    /// The number of documents with `outcome`.
    public func count(_ outcome: Outcome) -> Int { documents.count { $0.outcome == outcome } }

    /// True when every document read is the one the cache held (or was known absent).
    public var nothingChanged: Bool { !documents.contains { $0.changed } }

    /// The documents served from the cache (no request, or a failed one), with their ages.
    public var fromCache: [Document] { documents.filter { $0.outcome == .cached || $0.outcome == .kept } }
}
