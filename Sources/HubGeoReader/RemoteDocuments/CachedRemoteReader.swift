import Foundation
import HubGeoHTTP
import HubGeoJSON
import HubGeoModel

/// Reads http(s) documents through the document cache: a conditional request when a copy is
/// cached (`If-None-Match`, `If-Modified-Since`), the stored body on a `304`, no request at all
/// for a young enough copy (``DocumentCachePolicy/maxAge(_:)``) or offline, and the last good
/// copy, with a warning, when the server fails (5xx, timeout, reset) or sends a body that is not
/// JSON. A document never fetched still fails the import. Every request keeps the HTTP client's
/// limits (http and https only, size cap, redirect cap, time limits).
///
/// The cache lives in the database of an import; the import opens a
/// `RemoteDocumentSession` on it for one load (`session(cache:now:)`), so the cache changes
/// with the organizations or not at all.
public final class CachedRemoteReader: Sendable {
    /// When a cached document is used without asking the server.
    public let policy: DocumentCachePolicy
    /// The largest document read, in bytes.
    public let maxFileBytes: Int
    let client: SerializedCurlClient

    /// A reader over HTTP with `configuration`, of documents up to `maxFileBytes`, using the cache as `policy` says.
    public init(configuration: CurlClientConfiguration, maxFileBytes: Int = DocumentReader.defaultMaxFileBytes,
                policy: DocumentCachePolicy = .revalidate) {
        self.policy = policy
        self.maxFileBytes = maxFileBytes
        client = SerializedCurlClient(configuration: configuration)
    }

    /// A reader of files and embedded data as usual, and of http(s) documents with a plain
    /// request each (no cache: for reads outside an import).
    public var reader: DocumentReader {
        DocumentReader(maxFileBytes: maxFileBytes) { [client] url in
            try RemoteDocumentSession.requireHTTP(url)
            return try DocumentReader.document(from: client.get(url), of: url)
        }
    }

    /// A session of one load whose http(s) documents go through `cache` as of `now`: marks every
    /// cached document unused first (the load marks those it reads).
    package func session(cache: any DocumentCacheStorage, now: Date) throws -> RemoteDocumentSession {
        try cache.beginImport()
        return RemoteDocumentSession(reader: self, cache: cache, now: now)
    }
}

/// One load's reading through the document cache (``CachedRemoteReader/session(cache:now:)``):
/// its ``reader`` fetches through the cache, and ``traffic`` says what happened to each document.
package final class RemoteDocumentSession: @unchecked Sendable {
    // @unchecked: `traffic` is guarded by `lock`, which also serializes every use of `cache`; the
    // session lives inside the import's write transaction and is used synchronously by its load.

    private let policy: DocumentCachePolicy
    private let maxFileBytes: Int
    private let client: SerializedCurlClient
    private let cache: any DocumentCacheStorage
    private let now: Date
    private let lock = NSLock()
    private var recorded = DocumentTraffic()

    fileprivate init(reader: CachedRemoteReader, cache: any DocumentCacheStorage, now: Date) {
        policy = reader.policy
        maxFileBytes = reader.maxFileBytes
        client = reader.client
        self.cache = cache
        self.now = now
    }

    /// A reader of files and embedded data as usual, and of http(s) documents through the cache.
    package var reader: DocumentReader {
        DocumentReader(maxFileBytes: maxFileBytes) { [self] url in
            try Self.requireHTTP(url)
            return try lock.withLock { try fetch(url) }
        }
    }

    /// What happened to each remote document so far.
    package var traffic: DocumentTraffic { lock.withLock { recorded } }

    /// Never a local file nor any other scheme (the HTTP client refuses them too, and every redirect to them).
    static func requireHTTP(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError.unsupportedScheme(url)
        }
    }

    // MARK: - Fetching

    private func fetch(_ url: URL) throws -> Data? {
        // The cache key is the URL without its user and password: what is shown and stored.
        let key = URLRedaction.redacted(url)
        let cached = try cache.entry(key)
        switch policy {
        case .offline:
            guard let cached else {
                throw LoadError.unreadable(file: key, reason: "never fetched, so not in the document cache; --offline makes no requests (import once without it)")
            }
            return try serve(cached, as: .cached)
        case .maxAge(let limit):
            if let cached, cached.age(at: now) < limit { return try serve(cached, as: .cached) }
        case .revalidate, .refresh:
            break
        }
        // The copy to fall back on, and to validate against.
        let fallback = policy == .refresh ? nil : cached
        var headers: [(String, String)] = []
        if let fallback, fallback.hasBody {
            // Only validators that can be sent back: a server's ETag with a control character would
            // otherwise fail every later request for the document (it goes out unconditional instead).
            let validators = [("If-None-Match", fallback.etag), ("If-Modified-Since", fallback.lastModified)]
            for case let (name, value?) in validators where CurlClient.isValidHeader(name: name, value: value) {
                headers.append((name, value))
            }
        }
        let response: FetchedResponse
        do {
            recorded.requests += 1
            response = try client.get(url, headers: headers)
        } catch let error as FetchError where error.isTransient {
            guard let fallback else { throw error }
            return try keep(fallback, because: error.localizedDescription)
        }
        let validators = (etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
        switch response.status {
        case 304:
            guard let fallback, fallback.hasBody, !headers.isEmpty, let body = try cache.body(key) else {
                throw LoadError.unreadable(file: key, reason: "the server answered 304 Not Modified to a request that held no validators")
            }
            try cache.confirm(url: key, etag: validators.etag, lastModified: validators.lastModified, at: now)
            recorded.documents.append(.init(url: key, outcome: .notModified, age: fallback.age(at: now), changed: false))
            return body
        case 200..<300:
            let body = response.body
            recorded.bytesTransferred += body.count
            do {
                // Checked before it replaces the last good copy, without building its tree: the
                // walker streams it afterwards.
                try JSONParser().validate(body)
            } catch {
                guard let fallback else { throw LoadError.malformedJSON(file: key, line: error.line, column: error.column, reason: error.reason) }
                return try keep(fallback, because: "the new copy is malformed JSON at line \(error.line), column \(error.column): \(error.reason)")
            }
            let changed = cached?.bodyHash != CachedDocument.hash(body)
            try cache.storeBody(body, url: key, etag: validators.etag, lastModified: validators.lastModified, at: now)
            recorded.documents.append(.init(url: key, outcome: .fetched, age: nil, changed: changed))
            return body
        case 404, 410:
            try cache.storeAbsent(url: key, at: now)
            recorded.documents.append(.init(url: key, outcome: .absent, age: nil, changed: cached.map { $0.hasBody } ?? true))
            return nil
        case 408, 429, 500..<600:
            guard let fallback else {
                throw LoadError.unreadable(file: key, reason: "the server answered HTTP \(response.status)")
            }
            return try keep(fallback, because: "the server answered HTTP \(response.status)")
        default:
            throw LoadError.unreadable(file: key, reason: "the server answered HTTP \(response.status)")
        }
    }

    /// The cached copy, read without a request.
    private func serve(_ entry: CachedDocument, as outcome: DocumentTraffic.Outcome) throws -> Data? {
        try cache.markUsed(url: entry.url)
        recorded.documents.append(.init(url: entry.url, outcome: entry.hasBody ? outcome : .absent, age: entry.age(at: now), changed: false))
        guard entry.hasBody else { return nil }
        guard let body = try cache.body(entry.url) else {
            throw LoadError.unreadable(file: entry.url, reason: "the document cache lost its body")
        }
        return body
    }

    /// The last good copy after a failed request, with a warning naming the URL, the reason and the copy's age.
    private func keep(_ entry: CachedDocument, because reason: String) throws -> Data? {
        let copy = entry.hasBody ? "the cached copy" : "the cached answer that it does not exist"
        recorded.warnings.append("warning: \(entry.url): \(reason); using \(copy), last confirmed \(RFC3339.string(entry.checkedAt)) "
            + "(\(RFC3339.age(entry.age(at: now))) old)")
        try cache.markUsed(url: entry.url)
        recorded.documents.append(.init(url: entry.url, outcome: entry.hasBody ? .kept : .absent, age: entry.age(at: now), changed: false))
        guard entry.hasBody else { return nil }
        return try cache.body(entry.url)
    }
}
