import Foundation

/// A complete HTTP response. Any status, including 4xx and 5xx, is a response
/// rather than an error: callers decide what a status means to them.
package struct FetchedResponse: Sendable, Equatable {
    /// The status code of the final response (after redirects).
    package var status: Int
    /// Headers of the final response only, keyed by lower-cased name.
    /// Repeated headers are joined with ", ".
    package var headers: [String: String]
    /// The body, already decoded when the server used gzip or deflate.
    package var body: Data
    /// The URL the body came from (differs from the request URL after redirects).
    package var url: URL

    package init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of a header, looked up case-insensitively.
    package func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// True for 2xx statuses.
    package var isSuccess: Bool { (200..<300).contains(status) }
}
