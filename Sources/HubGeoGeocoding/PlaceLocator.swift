import Foundation
import HubGeoDatabase
import HubGeoModel

/// The cached forward search that `hubgeo locate` and the suggestions of `validate --geocode`
/// share: a search's answer from the geocode cache (filed by endpoint, query, language, viewbox
/// and limit: `PlaceSearch.cacheKey`), else asked through the one ``NominatimClient`` (its
/// interval, contact, request budget and retries) and stored as it arrives. Like the reverse
/// answers, a cached search answer stays until the same search is asked with `refresh`, and a
/// failure is never stored.
public final class PlaceLocator {
    /// What a search gave.
    public struct Result: Sendable {
        /// The candidates, best first (empty: nothing matched).
        public var candidates: [PlaceCandidate]
        /// True when the answer came from the cache, with no request.
        public var fromCache: Bool
        /// When the answer was fetched from Nominatim.
        public var fetchedAt: Date
    }

    private let cache: GeocodeCache?
    private let client: NominatimClient?
    private let configuration: NominatimConfiguration

    /// A locator caching in `store`'s database (nil: no cache) and asking through `client`
    /// (nil: cached answers only).
    public convenience init(store: OrganizationStore?, client: NominatimClient?, configuration: NominatimConfiguration) {
        self.init(cache: store?.geocodeCache, client: client, configuration: configuration)
    }

    package init(cache: GeocodeCache?, client: NominatimClient?, configuration: NominatimConfiguration) {
        self.cache = cache
        self.client = client
        self.configuration = configuration
    }

    /// HTTP requests sent so far by the client, retries included.
    public var requestCount: Int { client?.requestCount ?? 0 }

    /// The answer to `search`: cached, else asked and stored (unless `offline`, or there is no
    /// client: then nil for an uncached search). `refresh` asks again even when cached and
    /// replaces the cached answer. Throws ``GeocodeError`` for the request and a store error for
    /// the cache; a cached body that cannot be read any more is asked again.
    public func search(_ search: PlaceSearch, offline: Bool = false, refresh: Bool = false) throws -> Result? {
        if let problem = search.problem { throw GeocodeError.configuration(problem) }
        let key = search.cacheKey
        let endpoint = configuration.endpointKey
        if !refresh, let cache,
           let stored = try cache.searchAnswer(endpoint: endpoint, query: key.query, language: key.language,
                                               viewbox: key.viewbox, limit: key.limit),
           let candidates = try? NominatimSearchParser.parse(Data(stored.raw.utf8)) {
            return Result(candidates: candidates, fromCache: true, fetchedAt: stored.fetchedAt)
        }
        guard !offline, let client else { return nil }
        let answer = try client.search(search)
        let now = Date()
        try cache?.saveSearchAnswer(endpoint: endpoint, query: key.query, language: key.language, viewbox: key.viewbox,
                                    limit: key.limit, raw: String(decoding: answer.body, as: UTF8.self), at: now)
        return Result(candidates: answer.candidates, fromCache: false, fetchedAt: now)
    }
}
