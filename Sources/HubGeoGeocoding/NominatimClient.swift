import Foundation
import HubGeoHTTP
import HubGeoModel

/// Reverse lookups and forward searches against one Nominatim server over `CurlClient` (libcurl): one connection,
/// one request at a time, each starting at least ``NominatimConfiguration/minimumInterval``
/// after the previous one ended. That holds for every request that goes out, and each is
/// counted: retries, redirects, and the resend libcurl makes on a fresh connection when the
/// kept-alive one turns out closed (a reset).
///
/// Statuses: 200 is parsed (`Unable to geocode` is a valid no-result answer); 429 and 503 wait
/// out `Retry-After` (capped by ``NominatimConfiguration/maxRetryAfter``) and retry; other 5xx,
/// timeouts and broken connections retry with exponential backoff, at most
/// ``NominatimConfiguration/maxRetries`` times; 403, 400 and other statuses fail at once.
/// SIGINT or SIGTERM (`Interruption`) cut any wait short and stop with
/// ``GeocodeError/interrupted``: no request goes out after them, no retry.
///
/// Not thread-safe (it owns a `CurlClient`); use it from one thread.
public final class NominatimClient {
    /// The server and its settings.
    public let configuration: NominatimConfiguration
    /// HTTP requests sent so far, retries included.
    public private(set) var requestCount = 0
    /// When set, no request is sent once ``requestCount`` reaches it.
    public var requestBudget: Int?

    private let http: CurlClient
    private let limiter: RateLimiter
    private let clock: any GeocodeClock

    /// A client of the server `configuration` names; `clock` paces the requests.
    public init(configuration: NominatimConfiguration, clock: any GeocodeClock = SystemClock()) {
        self.configuration = configuration
        self.clock = clock
        http = CurlClient(configuration: CurlClientConfiguration(
            userAgent: configuration.userAgent, connectTimeout: configuration.connectTimeout,
            totalTimeout: configuration.totalTimeout, maxBodyBytes: 2 * 1024 * 1024, maxRedirects: 3))
        limiter = RateLimiter(interval: configuration.minimumInterval, clock: clock)
    }

    /// `{endpoint}/{name}`, whatever the endpoint's path ends with.
    private func endpoint(_ name: String) -> URLComponents {
        var components = URLComponents(url: configuration.endpoint, resolvingAgainstBaseURL: false)!
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + "/" + name
        return components
    }

    /// `items` and the configured `email`, percent-encoded for a query string.
    private func query(_ components: inout URLComponents, _ items: [URLQueryItem]) -> URL {
        var items = items
        if let email = configuration.email { items.append(URLQueryItem(name: "email", value: email)) }
        components.percentEncodedQueryItems = items.map {
            URLQueryItem(name: $0.name, value: $0.value?.addingPercentEncoding(withAllowedCharacters: Self.queryValueCharacters))
        }
        return components.url!
    }

    /// The request URL for a forward search:
    /// `{endpoint}/search?q&format=jsonv2&addressdetails=1&extratags=1&limit[&viewbox][&accept-language][&email]`.
    package func url(for search: PlaceSearch) -> URL {
        var components = endpoint("search")
        var items = [
            URLQueryItem(name: "q", value: search.normalizedQuery),
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "addressdetails", value: "1"),
            URLQueryItem(name: "extratags", value: "1"),
            URLQueryItem(name: "limit", value: String(search.limit)),
        ]
        if let viewbox = search.viewbox { items.append(URLQueryItem(name: "viewbox", value: viewbox)) }
        if let language = search.language { items.append(URLQueryItem(name: "accept-language", value: language)) }
        return query(&components, items)
    }

    /// The request URL for a point in a language:
    /// `{endpoint}/reverse?lat&lon&format=jsonv2&zoom&addressdetails=1[&namedetails=1][&accept-language][&email]`.
    /// A nil `language` sends none: Nominatim then answers with the local `name` tags. A nil
    /// `zoom` is the configured one.
    package func url(for point: GeoPoint, language: String?, nameDetails: Bool = true, zoom: Int? = nil) -> URL {
        var components = endpoint("reverse")
        var items = [
            URLQueryItem(name: "lat", value: Self.format(point.latitude)),
            URLQueryItem(name: "lon", value: Self.format(point.longitude)),
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "zoom", value: String(zoom ?? configuration.zoom)),
            URLQueryItem(name: "addressdetails", value: "1"),
        ]
        if nameDetails { items.append(URLQueryItem(name: "namedetails", value: "1")) }
        if let language { items.append(URLQueryItem(name: "accept-language", value: language)) }
        return query(&components, items)
    }

    /// A successful lookup: the parsed answer and the raw body.
    package struct Answer: Sendable {
        package var result: ReverseGeocodeResult
        package var body: Data
        package var url: URL
    }

    /// One reverse lookup, with pacing and retries. Throws ``GeocodeError``; never crashes on
    /// network faults or odd bodies. A nil `language`: the places' local names. A nil `zoom`:
    /// the configured one (a lower one asks for a coarser object: 3 the country, 10 the city).
    package func reverse(_ point: GeoPoint, language: String?, nameDetails: Bool = true, zoom: Int? = nil) throws(GeocodeError) -> Answer {
        let url = url(for: point, language: language, nameDetails: nameDetails, zoom: zoom)
        let (result, body) = try send(url, parse: NominatimResponseParser.parse)
        return Answer(result: result, body: body, url: url)
    }

    /// A successful forward search: the candidates, best first, and the raw body.
    public struct SearchAnswer: Sendable {
        /// The places found, best first as Nominatim ranked them; empty when none matched.
        public var candidates: [PlaceCandidate]
        /// The body as received (what the geocode cache keeps).
        public var body: Data
        /// The request's URL.
        public var url: URL
    }

    /// One forward search (Nominatim's `/search`), with the same pacing, request budget, retries
    /// and errors as every request of this client; not cached (``PlaceLocator`` caches).
    /// Throws ``GeocodeError``: ``GeocodeError/configuration(_:)`` for a search that cannot be
    /// sent (``PlaceSearch/problem``), ``GeocodeError/invalidResponse(_:_:)`` for a body that
    /// is not a search answer.
    public func search(_ search: PlaceSearch) throws(GeocodeError) -> SearchAnswer {
        if let problem = search.problem { throw .configuration(problem) }
        let url = url(for: search)
        let (candidates, body) = try send(url, parse: NominatimSearchParser.parse)
        return SearchAnswer(candidates: candidates, body: body, url: url)
    }

    /// Sends one request to `url` with pacing and retries, and parses a 200's body with `parse`.
    private func send<Parsed>(_ url: URL, parse: (Data) throws(NominatimResponseParser.Failure) -> Parsed)
        throws(GeocodeError) -> (Parsed, Data) {
        var attempt = 0
        while true {
            if let requestBudget, requestCount >= requestBudget { throw .requestBudgetExhausted(requestBudget) }
            limiter.waitForTurn()
            // The wait (pacing, backoff, Retry-After) ends early on SIGINT or SIGTERM: then no request.
            guard !Interruption.isRequested else { throw .interrupted }
            requestCount += 1
            let outcome = attemptOnce(url, parse: parse)
            limiter.requestEnded()
            if budgetStoppedFollowUp, let requestBudget { throw .requestBudgetExhausted(requestBudget) }
            switch outcome {
            case .success(let answer):
                return answer
            case .failure(let failure):
                guard !Interruption.isRequested else { throw .interrupted }
                guard failure.retry, attempt < configuration.maxRetries else { throw failure.error }
                attempt += 1
                if let retryAfter = failure.retryAfter {
                    guard retryAfter <= configuration.maxRetryAfter else { throw failure.error }
                    limiter.holdOff(retryAfter)
                } else {
                    let backoff = min(configuration.backoffCap, configuration.backoffBase * pow(2, Double(attempt - 1)))
                    limiter.holdOff(backoff)
                }
            }
        }
    }

    private struct Failure: Error {
        var error: GeocodeError
        var retry: Bool
        var retryAfter: TimeInterval?
    }

    /// Set when the request budget stopped a redirect or resend within one attempt.
    private var budgetStoppedFollowUp = false

    /// A request after the first within one attempt (a resend on a fresh connection after a
    /// reset, or a redirect) is a request like any other: within the budget, paced, counted.
    private func admitFollowUp() -> Bool {
        if let requestBudget, requestCount >= requestBudget {
            budgetStoppedFollowUp = true
            return false
        }
        limiter.requestEnded()  // the previous request of this attempt has just ended
        limiter.waitForTurn()
        guard !Interruption.isRequested else { return false }
        requestCount += 1
        return true
    }

    private func attemptOnce<Parsed>(_ url: URL, parse: (Data) throws(NominatimResponseParser.Failure) -> Parsed)
        -> Result<(Parsed, Data), Failure> {
        let response: FetchedResponse
        budgetStoppedFollowUp = false
        do {
            response = try http.get(url, headers: [("Accept", "application/json")], beforeFollowUp: { [unowned self] in
                admitFollowUp()
            })
        } catch {
            return .failure(Failure(error: .network(error), retry: error.isTransient))
        }
        let message = { NominatimResponseParser.errorMessage(in: response.body) }
        switch response.status {
        case 200:
            do {
                return .success((try parse(response.body), response.body))
            } catch {
                return .failure(Failure(error: .invalidResponse(url, error.reason), retry: false))
            }
        case 429, 503:
            let retryAfter = Self.retryAfter(response.header("Retry-After"), now: Date())
            return .failure(Failure(error: .rateLimited(url, status: response.status, retryAfter: retryAfter),
                                    retry: true, retryAfter: retryAfter ?? max(configuration.backoffBase, 1)))
        case 403:
            return .failure(Failure(error: .blocked(url, message: message()), retry: false))
        case 400:
            return .failure(Failure(error: .badRequest(url, message: message() ?? "(no message)"), retry: false))
        case 500...599:
            return .failure(Failure(error: .serverError(url, status: response.status), retry: true))
        default:
            return .failure(Failure(error: .unexpectedStatus(url, status: response.status, message: message()), retry: false))
        }
    }

    /// `Retry-After` as seconds from now: delta-seconds or an HTTP date. Nil when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Up to `decimals` decimals (by default 7, Nominatim's own precision), no exponent, no trailing zeros.
    package static func format(_ degrees: Double, decimals: Int = 7) -> String {
        DegreesText.string(degrees, decimals: decimals)
    }

    private static let queryValueCharacters: CharacterSet = {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")
    }()
}
