import Foundation
import GRDB
import HubGeoHTTP
import HubGeoJSON
import HubGeoModel

/// Reads http(s) documents through the ``DocumentCache``: a conditional request when a copy is
/// cached (`If-None-Match`, `If-Modified-Since`), the stored body on a `304`, no request at all
/// for a young enough copy (``DocumentCachePolicy/maxAge(_:)``) or offline, and the last good
/// copy, with a warning, when the server fails (5xx, timeout, reset) or sends a body that is not
/// JSON. A document never fetched still fails the import. Every request keeps the HTTP client's
/// limits (http and https only, size cap, redirect cap, time limits).
///
/// The cache is read and written through the database of the import's transaction
/// (``Importer``), bound for the time of one load: the cache changes with the organizations or
/// not at all.
public final class CachedRemoteReader: @unchecked Sendable {
    // @unchecked: the mutable state is guarded by `lock`; the bound database is used only
    // synchronously, from inside the import's write transaction.

    public let policy: DocumentCachePolicy
    public let maxFileBytes: Int
    private let client: SerializedCurlClient
    private let lock = NSLock()
    private var database: Database?
    private var now = Date()
    private var traffic = DocumentTraffic()

    public init(configuration: CurlClientConfiguration, maxFileBytes: Int = DocumentReader.defaultMaxFileBytes,
                policy: DocumentCachePolicy = .revalidate) {
        self.policy = policy
        self.maxFileBytes = maxFileBytes
        client = SerializedCurlClient(CurlClient(configuration: configuration))
    }

    /// A reader of files and embedded data as usual, and of http(s) documents through this cache.
    public var reader: DocumentReader {
        DocumentReader(maxFileBytes: maxFileBytes) { [self] url in try fetch(url) }
    }

    /// Runs `body` (a load) with the cache of `db`, inside the import's transaction; returns what
    /// it did with each remote document.
    func reading<T>(_ db: Database, now: Date, _ body: () throws -> T) throws -> (T, DocumentTraffic) {
        try DocumentCache.beginImport(in: db)
        lock.withLock {
            database = db
            self.now = now
            traffic = DocumentTraffic()
        }
        defer { lock.withLock { database = nil } }
        let result = try body()
        return (result, lock.withLock { traffic })
    }

    // MARK: - Fetching

    private func fetch(_ url: URL) throws -> Data? {
        try lock.withLock {
            // Never a local file nor any other scheme (the HTTP client refuses them too, and every redirect to them).
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw FetchError.unsupportedScheme(url)
            }
            guard let db = database else { return try uncached(url) }
            return try fetch(url, db: db)
        }
    }

    /// Without a database (a reader used outside an import): a plain fetch.
    private func uncached(_ url: URL) throws -> Data? {
        let response = try client.get(url)
        traffic.requests += 1
        return try DocumentReader.document(from: response, of: url)
    }

    private func fetch(_ url: URL, db: Database) throws -> Data? {
        // The cache key is the URL without its user and password: what is shown and stored.
        let key = URLRedaction.redacted(url)
        let cached = try DocumentCache.entry(key, in: db)
        switch policy {
        case .offline:
            guard let cached else {
                throw LoadError.unreadable(file: key, reason: "never fetched, so not in the document cache; --offline makes no requests (import once without it)")
            }
            return try serve(cached, as: .cached, db: db)
        case .maxAge(let limit):
            if let cached, cached.age(at: now) < limit { return try serve(cached, as: .cached, db: db) }
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
            traffic.requests += 1
            response = try client.get(url, headers: headers)
        } catch let error as FetchError where error.isTransient {
            guard let fallback else { throw error }
            return try keep(fallback, because: error.localizedDescription, db: db)
        }
        let validators = (etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
        switch response.status {
        case 304:
            guard let fallback, fallback.hasBody, !headers.isEmpty, let body = try DocumentCache.body(key, in: db) else {
                throw LoadError.unreadable(file: key, reason: "the server answered 304 Not Modified to a request that held no validators")
            }
            try DocumentCache.confirm(url: key, etag: validators.etag, lastModified: validators.lastModified, at: now, in: db)
            traffic.documents.append(.init(url: key, outcome: .notModified, age: fallback.age(at: now), changed: false))
            return body
        case 200..<300:
            let body = response.body
            traffic.bytesTransferred += body.count
            do {
                _ = try JSONParser().parse(body)
            } catch {
                guard let fallback else { throw LoadError.malformedJSON(file: key, line: error.line, column: error.column, reason: error.reason) }
                return try keep(fallback, because: "the new copy is malformed JSON at line \(error.line), column \(error.column): \(error.reason)", db: db)
            }
            let changed = cached?.bodyHash != DocumentCache.hash(body)
            try DocumentCache.storeBody(body, url: key, etag: validators.etag, lastModified: validators.lastModified, at: now, in: db)
            traffic.documents.append(.init(url: key, outcome: .fetched, age: nil, changed: changed))
            return body
        case 404, 410:
            try DocumentCache.storeAbsent(url: key, at: now, in: db)
            traffic.documents.append(.init(url: key, outcome: .absent, age: nil, changed: cached.map { $0.hasBody } ?? true))
            return nil
        case 408, 429, 500..<600:
            guard let fallback else {
                throw LoadError.unreadable(file: key, reason: "the server answered HTTP \(response.status)")
            }
            return try keep(fallback, because: "the server answered HTTP \(response.status)", db: db)
        default:
            throw LoadError.unreadable(file: key, reason: "the server answered HTTP \(response.status)")
        }
    }

    /// The cached copy, read without a request.
    private func serve(_ entry: DocumentCache.Entry, as outcome: DocumentTraffic.Outcome, db: Database) throws -> Data? {
        try DocumentCache.markUsed(url: entry.url, in: db)
        traffic.documents.append(.init(url: entry.url, outcome: entry.hasBody ? outcome : .absent, age: entry.age(at: now), changed: false))
        guard entry.hasBody else { return nil }
        guard let body = try DocumentCache.body(entry.url, in: db) else {
            throw LoadError.unreadable(file: entry.url, reason: "the document cache lost its body")
        }
        return body
    }

    /// The last good copy after a failed request, with a warning naming the URL, the reason and the copy's age.
    private func keep(_ entry: DocumentCache.Entry, because reason: String, db: Database) throws -> Data? {
        let copy = entry.hasBody ? "the cached copy" : "the cached answer that it does not exist"
        traffic.warnings.append("warning: \(entry.url): \(reason); using \(copy), last confirmed \(RFC3339.string(entry.checkedAt)) "
            + "(\(RFC3339.age(entry.age(at: now))) old)")
        try DocumentCache.markUsed(url: entry.url, in: db)
        traffic.documents.append(.init(url: entry.url, outcome: entry.hasBody ? .kept : .absent, age: entry.age(at: now), changed: false))
        guard entry.hasBody else { return nil }
        return try DocumentCache.body(entry.url, in: db)
    }
}
