import Foundation
import HubGeoModel
import HubGeoReader

/// The documents an import fetched by URL while it checked whether anything changed since the
/// last import (`Importer`), kept so that its load, when something did change, reads each of
/// them from here instead of asking the server (or the document cache) a second time: one
/// request per document and import, as before the check existed, and one entry each in the
/// import's ``DocumentTraffic``.
final class FetchedDocuments: @unchecked Sendable {
    // @unchecked: `bodies` is guarded by `lock`.
    private let lock = NSLock()
    /// The answer for each URL fetched: its body, or nil when it does not exist.
    private var bodies: [URL: Data?] = [:]

    /// A reader like `reader` that keeps what it fetches by URL.
    func keeping(_ reader: DocumentReader) -> DocumentReader {
        DocumentReader(maxFileBytes: reader.maxFileBytes) { [self] url in
            let body = try reader.read(.remote(url))
            lock.withLock { bodies[url] = .some(body) }
            return body
        }
    }

    /// A reader like `reader` that answers a URL kept here from here.
    func replaying(_ reader: DocumentReader) -> DocumentReader {
        DocumentReader(maxFileBytes: reader.maxFileBytes) { [self] url in
            if let kept = lock.withLock({ bodies[url] }) { return kept }
            return try reader.read(.remote(url))
        }
    }
}
