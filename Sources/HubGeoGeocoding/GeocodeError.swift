import Foundation
import HubGeoHTTP
import HubGeoModel

/// Why a reverse geocoding request gave no usable answer. Messages name the URL and status.
public enum GeocodeError: LocalizedError, Equatable, Sendable {
    /// HTTP 403: the server refuses this client (usage policy). Stops a batch at once.
    case blocked(URL, message: String?)
    /// HTTP 400: the request was malformed; a bug in hubgeo worth reporting.
    case badRequest(URL, message: String)
    /// HTTP 429 or 503 still after the retries, or a `Retry-After` too long to wait out.
    case rateLimited(URL, status: Int, retryAfter: TimeInterval?)
    /// HTTP 5xx still after the retries.
    case serverError(URL, status: Int)
    /// Any other status (404: probably a wrong endpoint).
    case unexpectedStatus(URL, status: Int, message: String?)
    /// A 200 whose body is not a Nominatim jsonv2 answer (not JSON, truncated, wrong shape).
    case invalidResponse(URL, String)
    /// No response at all (timeout, reset, TLS, ...), after the retries for transient failures.
    case network(FetchError)
    /// Several places in a row failed for want of any response: the network or the server is down.
    case unreachable(FetchError, placesInARow: Int)
    /// Bulk requests to the public server need a contact (usage policy).
    case contactRequired(URL)
    /// `--max-requests` is used up; nothing was sent.
    case requestBudgetExhausted(Int)
    /// A setting is malformed.
    case configuration(String)
    /// SIGINT or SIGTERM (`Interruption`): no further request was sent.
    case interrupted

    /// True when a batch must stop rather than go on with the next place: the server blocks
    /// or throttles us, the requests are wrong, or the endpoint or setup is wrong.
    public var stopsBatch: Bool {
        switch self {
        case .blocked, .badRequest, .rateLimited, .unexpectedStatus, .unreachable, .contactRequired,
             .requestBudgetExhausted, .configuration, .interrupted:
            return true
        case .network(let error):
            return !error.isTransient
        case .serverError, .invalidResponse:
            return false
        }
    }

    /// The error in words.
    public var errorDescription: String? {
        switch self {
        case .blocked(let url, let message):
            return "Nominatim refused the request (HTTP 403) at \(URLRedaction.redacted(url))\(message.map { ": \($0)" } ?? ""). "
                + "The server blocks clients that break its usage policy (https://operations.osmfoundation.org/policies/nominatim/): "
                + "set a contact (--contact or HUBGEO_CONTACT), keep to 1 request per second, or use your own Nominatim (--nominatim-url)."
        case .badRequest(let url, let message):
            return "Nominatim rejected the request as malformed (HTTP 400): \(message) [\(URLRedaction.redacted(url))]. "
                + "This is a bug in hubgeo; please report it with this message."
        case .rateLimited(let url, let status, let retryAfter):
            let wait = retryAfter.map { " (Retry-After: \(Int($0.rounded())) s)" } ?? ""
            return "Nominatim is throttling requests (HTTP \(status))\(wait) at \(URLRedaction.redacted(url)); stopped. Run again later: done work is kept."
        case .serverError(let url, let status):
            return "Nominatim answered HTTP \(status) at \(URLRedaction.redacted(url)), also after retrying."
        case .unexpectedStatus(let url, let status, let message):
            return "Nominatim answered HTTP \(status) at \(URLRedaction.redacted(url))\(message.map { ": \($0)" } ?? ""). Is the endpoint a Nominatim server?"
        case .invalidResponse(let url, let detail):
            return "Nominatim's answer from \(URLRedaction.redacted(url)) is not usable: \(detail)"
        case .network(let error):
            return error.errorDescription
        case .unreachable(let error, let places):
            return "Nominatim is unreachable: \(places) places in a row got no response, the last one: "
                + "\(error.errorDescription ?? "\(error)") Stopped; run again when the network is back: done work is kept."
        case .contactRequired(let url):
            return "Refusing bulk requests to the public Nominatim server (\(URLRedaction.redacted(url))) without a contact: "
                + "its usage policy asks applications to identify themselves. Set one with --contact you@example.org, "
                + "HUBGEO_CONTACT, or \"contact = ...\" in the config file; or use your own server with --nominatim-url."
        case .requestBudgetExhausted(let limit):
            return "Reached --max-requests \(limit)."
        case .configuration(let detail):
            return "Geocoder setting: \(detail)"
        case .interrupted:
            return "Interrupted (SIGINT or SIGTERM); no further request was sent."
        }
    }
}
