import Foundation
import HubGeoHTTP
import HubGeoModel

extension DocumentReader {
    /// Reads files, embedded data and http(s) URLs (through libcurl, one connection,
    /// with the client's size, redirect and time limits).
    public static var standard: DocumentReader { standard(configuration: .init(userAgent: "hubgeo/\(HubGeoVersion.current)")) }

    /// Like `standard`, with explicit HTTP settings and file size limit.
    public static func standard(configuration: CurlClientConfiguration,
                                maxFileBytes: Int = DocumentReader.defaultMaxFileBytes) -> DocumentReader {
        let client = SerializedCurlClient(configuration: configuration)
        return DocumentReader(maxFileBytes: maxFileBytes) { url in try document(from: client.get(url), of: url) }
    }

    /// What a plain GET of the document at `url` gives: the body of a 2xx, nil for a 404 or 410
    /// (the document does not exist), else an error naming the URL and the status.
    static func document(from response: FetchedResponse, of url: URL) throws -> Data? {
        switch response.status {
        case 200..<300: return response.body
        case 404, 410: return nil
        default: throw LoadError.unreadable(file: URLRedaction.redacted(url), reason: "the server answered HTTP \(response.status)")
        }
    }
}

/// One HTTP client shared by closures that may be called from any thread, one request at a time.
/// The client (and with the process's first one, libcurl) is made at the first request: reading
/// files and the built-in data never loads libcurl.
final class SerializedCurlClient: @unchecked Sendable {
    // @unchecked: `client` is made and used only under `lock`.
    private let lock = NSLock()
    private let configuration: CurlClientConfiguration
    private var client: CurlClient?

    init(configuration: CurlClientConfiguration) {
        self.configuration = configuration
    }

    func get(_ url: URL, headers: [(String, String)] = []) throws -> FetchedResponse {
        try lock.withLock {
            let client = self.client ?? CurlClient(configuration: configuration)
            self.client = client
            return try client.get(url, headers: headers)
        }
    }
}
