import Foundation

/// Settings for a `CurlClient`. Fixed for the life of the client.
///
/// Only `http` and `https` URLs are ever fetched (also when following redirects),
/// gzip/deflate responses are decoded transparently, and TLS certificate and host
/// verification are always on; none of that is configurable.
public struct CurlClientConfiguration: Sendable, Equatable {
    /// The `User-Agent` sent with every request. Required: services such as
    /// Nominatim ask for an identifying agent, so there is no stock default.
    public var userAgent: String
    /// Seconds allowed for name resolution and the TCP/TLS connect.
    public var connectTimeout: TimeInterval
    /// Seconds allowed for a whole request, redirects included.
    public var totalTimeout: TimeInterval
    /// Largest (decoded) response body accepted; larger transfers are aborted
    /// with ``FetchError/bodyTooLarge(_:limit:)``.
    public var maxBodyBytes: Int
    /// Most redirects followed for one request; one more fails with
    /// ``FetchError/tooManyRedirects(_:limit:from:to:)``. Zero disables following.
    public var maxRedirects: Int

    /// Creates a configuration; every limit has a conservative default.
    public init(
        userAgent: String,
        connectTimeout: TimeInterval = 10,
        totalTimeout: TimeInterval = 30,
        maxBodyBytes: Int = 20 * 1024 * 1024,
        maxRedirects: Int = 5
    ) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
    }
}
