import Foundation
import HubGeoModel

/// Why a `CurlClient` request produced no response. Every message names the URL.
///
/// A non-2xx status is not an `FetchError`; it is returned as an `FetchedResponse`.
public enum FetchError: LocalizedError, Equatable, Sendable {
    /// The URL is not `http` or `https`; nothing was sent.
    case unsupportedScheme(URL)
    /// A redirect to a URL that is not `http` or `https` was refused: `from` (the requested URL
    /// or a later hop) answered with a redirect to `to`.
    case redirectRefused(URL, from: URL, to: String)
    /// No complete response within the connect or total timeout (seconds).
    case timedOut(URL, seconds: TimeInterval)
    /// The TCP connection failed (refused, unreachable, ...), with libcurl's detail.
    case couldNotConnect(URL, String)
    /// The host name did not resolve.
    case couldNotResolve(URL)
    /// The body exceeded ``CurlClientConfiguration/maxBodyBytes``; the transfer was aborted.
    case bodyTooLarge(URL, limit: Int)
    /// More tha ``CurlClientConfiguration/maxRedirects`` redirects: the last hop, `from`,
    /// redirected once more, to `to` (when known).
    case tooManyRedirects(URL, limit: Int, from: URL? = nil, to: String? = nil)
    /// The connection broke mid-transfer: reset, truncated body, empty reply, ...
    case transfer(URL, String)
    /// TLS handshake or certificate verification failed.
    case tls(URL, String)
    /// The header name or value cannot be sent (control characters, empty name).
    case invalidHeader(URL, name: String)
    /// Any other libcurl failure, with libcurl's detail.
    case failed(URL, String)
    /// The process was interrupted (SIGINT or SIGTERM, see `Interruption`): the request was not
    /// sent, or its transfer was aborted.
    case interrupted(URL)

    /// The URL the failed request was for.
    public var url: URL {
        switch self {
        case .unsupportedScheme(let url), .redirectRefused(let url, _, _), .timedOut(let url, _), .couldNotConnect(let url, _),
             .couldNotResolve(let url), .bodyTooLarge(let url, _), .tooManyRedirects(let url, _, _, _),
             .transfer(let url, _), .tls(let url, _), .invalidHeader(let url, _), .failed(let url, _), .interrupted(let url):
            return url
        }
    }

    /// True when trying again later may succeed: timeouts, connection and
    /// resolution failures, broken transfers. Scheme, size, redirect, header,
    /// TLS and other failures are permanent for the same request, and an
    /// interruption is never retried.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .couldNotConnect, .couldNotResolve, .transfer:
            return true
        case .unsupportedScheme, .redirectRefused, .bodyTooLarge, .tooManyRedirects, .tls, .invalidHeader, .failed, .interrupted:
            return false
        }
    }

    /// The error in words, naming the URL.
    public var errorDescription: String? {
        // Every URL without its user and password (see URLRedaction).
        let url = URLRedaction.redacted(url)
        switch self {
        case .unsupportedScheme:
            return "Refused \(url): only http and https URLs are supported."
        case .redirectRefused(let requested, let from, let to):
            let via = from == requested ? "" : " (reached from \(url))"
            return "Refused the redirect from \(URLRedaction.redacted(from)) to \(URLRedaction.redacted(to))\(via): only http and https URLs are supported."
        case .timedOut(_, let seconds):
            return "Request to \(url) timed out after \(Self.format(seconds)) s."
        case .couldNotConnect(_, let detail):
            return "Could not connect to \(url): \(detail)"
        case .couldNotResolve:
            return "Could not resolve the host of \(url)."
        case .bodyTooLarge(_, let limit):
            return "Response from \(url) is larger than the limit of \(limit) bytes."
        case .tooManyRedirects(_, let limit, let from, let to):
            let last = from.map { from in " (refused the next, from \(URLRedaction.redacted(from)) to \(to.map(URLRedaction.redacted) ?? "an unknown URL"))" } ?? ""
            return "Request to \(url) was redirected more than \(limit) times\(last)."
        case .transfer(_, let detail):
            return "Transfer from \(url) failed: \(detail)"
        case .tls(_, let detail):
            return "TLS error for \(url): \(detail)"
        case .invalidHeader(_, let name):
            return "Request to \(url) has an invalid header \"\(name)\"."
        case .failed(_, let detail):
            return "Request to \(url) failed: \(detail)"
        case .interrupted:
            return "Request to \(url) was interrupted."
        }
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
