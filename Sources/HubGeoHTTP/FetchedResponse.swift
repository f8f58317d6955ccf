import Foundation

/// A complete HTTP response. Any status, including 4xx and 5xx, is a response
/// rather than an error: callers decide what a status means to them.
package struct FetchedResponse: Sendable, Equatable {
    /// The status code of the final response (after redirects).
    public var status: Int
    /// Headers of the final response only, keyed by lower-cased name.
    /// Repeated headers are joined with ", ".
    public var headers: [String: String]
    /// The body, already decoded when the server used gzip or deflate.
    public var body: Data
    /// The URL the body came from (differs from the request URL after redirects).
    public var url: URL

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// True for 2xx statuses.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
