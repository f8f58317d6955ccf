import Foundation

/// The `localize` batch: the localized town and country of every organization in every asked
/// language, from the cache or from Nominatim, each answer committed as it arrives so that an
/// interrupted run resumes where it stopped.
///
/// **Request economy.** Work is per distinct (rounded) coordinate, so organizations sharing a
/// point cost one lookup. For a point, the first missing language is asked (with
/// `namedetails=1`); the other languages are then *derived* without a request when, and only
/// when, the result is certain to equal that language's own answer:
/// - "Unable to geocode" does not depend on the language: no-result in every language.
/// - Which object Nominatim returns, and so which address keys exist, does not depend on the
///   language either; only names do. No town key: the town is absent in every language.
/// - The town's name in another language is derived from `namedetails` only when the returned
///   object *is* the town (its `addresstype` is the chosen town key) and Nominatim's name rule
///   (``NominatimLocales``) applied to those tags reproduces the town of the asked language.
///   Otherwise (a road, a suburb inside a city, a region variant like `en-GB`) the language is asked.
/// - The country name depends only on the country code and the language: once one answer in a
///   language gave it for a code, it is reused for every point with that code.
/// So a run costs about one request per distinct point, plus one per country and further language.
public final class Localizer {
    /// What to localize.
    public struct Options: Sendable {
        public var languages: [String]
        public var type: OrganizationType?
        /// Answer from the cache only; never touch the network.
        public var offline: Bool

        public init(languages: [String], type: OrganizationType? = nil, offline: Bool = false) {
            self.languages = languages
            self.type = type
            self.offline = offline
        }
    }

    /// Counts so far; also the closing summary.
    public struct Progress: Sendable, Equatable {
        public var organizations = 0
        /// Distinct coordinates to do, and done.
        public var total = 0
        public var done = 0
        public var languages = 0
        /// HTTP requests sent, retries included.
        public var requests = 0
        /// (point, language) pairs answered by the cache.
        public var cacheHits = 0
        /// (point, language) pairs answered by a request.
        public var fetched = 0
        /// (point, language) pairs answered without a request from another language's answer.
        public var derived = 0
        /// (point, language) pairs whose answer is "no place here" (cached or new).
        public var noResult = 0
        /// (point, language) pairs that failed this run (nothing cached for them).
        public var failures = 0
        /// (point, language) pairs not in the cache in an offline run.
        public var missingOffline = 0
        /// Seconds since the start.
        public var elapsed: TimeInterval = 0

        /// Estimated seconds left, from the pace so far.
        public var estimatedRemaining: TimeInterval? {
            guard done > 0, total > done else { return total == done ? 0 : nil }
            return elapsed / Double(done) * Double(total - done)
        }
    }

    /// How a run ended.
    public struct Summary: Sendable {
        public var progress: Progress
        /// The error that stopped the batch early (403, 429, budget, ...), if any.
        public var stoppedBy: GeocodeError?
        /// True when `shouldStop` ended the run (Ctrl-C).
        public var interrupted = false
        /// The last failure of a place that did not stop the batch, for the message.
        public var lastFailure: GeocodeError?

        public var isComplete: Bool { stoppedBy == nil && !interrupted && progress.failures == 0 && progress.missingOffline == 0 }
    }

    private let store: OrganizationStore
    private let client: NominatimClient?
    private let configuration: NominatimConfiguration
    private let clock: any GeocodeClock

    /// `client` may be nil for offline runs only.
    public init(store: OrganizationStore, client: NominatimClient?, configuration: NominatimConfiguration,
                clock: any GeocodeClock = SystemClock()) {
        self.store = store
        self.client = client
        self.configuration = configuration
        self.clock = clock
    }

    /// After this many places in a row get no response at all (each after its own retries),
    /// the batch stops instead of spending minutes on every remaining place.
    static let unansweredPlacesBeforeStopping = 3

    /// Runs the batch. `progress` is called after each point; `shouldStop` is checked before
    /// each request and point. Store errors are thrown; geocoding errors end up in the summary.
    public func run(_ options: Options, progress report: (Progress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Summary {
        let start = clock.now()
        let points = try store.distinctCoordinates(type: options.type)
        var summary = Summary(progress: Progress())
        summary.progress.organizations = points.reduce(0) { $0 + $1.organizations }
        summary.progress.total = points.count
        summary.progress.languages = options.languages.count
        let requestsBefore = client?.requestCount ?? 0

        func update() {
            summary.progress.elapsed = clock.now() - start
            summary.progress.requests = (client?.requestCount ?? 0) - requestsBefore
        }

        // Places that failed in a row for want of any response: the network is down, not the place.
        var unansweredInARow = 0

        pointLoop: for (coordinate, _) in points {
            if shouldStop() { summary.interrupted = true; break }
            let cached = try store.cachedGeocodes(coordinate, endpoint: configuration.endpointKey, zoom: configuration.zoom)
            let cachedLanguages = Set(cached.map(\.language))
            var templates = cached.filter { $0.source == .request }.compactMap(Template.init)
            for language in options.languages where cachedLanguages.contains(language) {
                summary.progress.cacheHits += 1
                if cached.first(where: { $0.language == language })?.status == .noResult { summary.progress.noResult += 1 }
            }
            let missing = options.languages.filter { !cachedLanguages.contains($0) }
            if options.offline {
                summary.progress.missingOffline += missing.count
            } else {
                for language in missing {
                    if let entry = try derive(coordinate, language: language, from: templates) {
                        try store.saveGeocode(entry)
                        summary.progress.derived += 1
                        if entry.status == .noResult { summary.progress.noResult += 1 }
                        continue
                    }
                    if shouldStop() { summary.interrupted = true; update(); break pointLoop }
                    guard let client else { summary.progress.missingOffline += 1; continue }
                    let answer: NominatimClient.Answer
                    do {
                        answer = try client.reverse(coordinate.point, language: language)
                    } catch {
                        update()
                        if error.stopsBatch {
                            summary.stoppedBy = error
                            break pointLoop
                        }
                        summary.lastFailure = error
                        if case .network(let networkError) = error {
                            unansweredInARow += 1
                            if unansweredInARow >= Self.unansweredPlacesBeforeStopping {
                                summary.progress.failures += missing.count - missing.firstIndex(of: language)!
                                summary.stoppedBy = .unreachable(networkError, placesInARow: unansweredInARow)
                                break pointLoop
                            }
                        }
                        // The other languages of this point would most likely fail the same way.
                        summary.progress.failures += missing.count - missing.firstIndex(of: language)!
                        break
                    }
                    let entry = GeocodeCacheEntry(
                        coordinate: coordinate, language: language, endpoint: configuration.endpointKey,
                        zoom: configuration.zoom, status: answer.result.status, town: answer.result.town,
                        townKey: answer.result.townKey, country: answer.result.country,
                        countryCode: answer.result.countryCode, source: .request,
                        rawResponse: String(decoding: answer.body, as: UTF8.self), fetchedAt: Date())
                    try store.saveGeocode(entry)
                    unansweredInARow = 0
                    templates.append(Template(language: language, result: answer.result, raw: entry.rawResponse))
                    summary.progress.fetched += 1
                    if entry.status == .noResult { summary.progress.noResult += 1 }
                }
            }
            summary.progress.done += 1
            update()
            report(summary.progress)
        }
        update()
        return summary
    }

    /// An answer obtained by a request, usable to derive other languages.
    struct Template {
        var language: String
        var result: ReverseGeocodeResult
        var raw: String

        init(language: String, result: ReverseGeocodeResult, raw: String) {
            self.language = language
            self.result = result
            self.raw = raw
        }

        init?(_ entry: GeocodeCacheEntry) {
            guard let result = try? NominatimResponseParser.parse(Data(entry.rawResponse.utf8)) else { return nil }
            self.init(language: entry.language, result: result, raw: entry.rawResponse)
        }
    }

    /// The entry for `language` derived from an answer in another language, or nil when it
    /// cannot be certain to equal a request in `language` (see the type's documentation).
    func derive(_ coordinate: GeocodeCoordinate, language: String, from templates: [Template]) throws -> GeocodeCacheEntry? {
        for template in templates {
            let result = template.result
            func entry(town: String?, country: String?) -> GeocodeCacheEntry {
                GeocodeCacheEntry(coordinate: coordinate, language: language, endpoint: configuration.endpointKey,
                                  zoom: configuration.zoom, status: result.status, town: town, townKey: result.townKey,
                                  country: country, countryCode: result.countryCode, source: .derived,
                                  rawResponse: template.raw, fetchedAt: Date())
            }
            if result.status == .noResult { return entry(town: nil, country: nil) }
            guard let town = Self.derivedTown(result, templateLanguage: template.language, language: language) else { continue }
            let country: String?
            if let code = result.countryCode {
                guard let known = try store.cachedCountryName(code: code, language: language, endpoint: configuration.endpointKey)
                else { continue }
                country = known
            } else if result.country == nil {
                country = nil
            } else {
                continue
            }
            return entry(town: town, country: country)
        }
        return nil
    }

    /// `.some(nil)`: no town in any language; `.some(name)`: the derived name; nil: must ask.
    static func derivedTown(_ result: ReverseGeocodeResult, templateLanguage: String, language: String) -> String?? {
        guard let townKey = result.townKey, let town = result.town else { return .some(nil) }
        guard NominatimLocales.isPlainLanguage(language), NominatimLocales.isPlainLanguage(templateLanguage),
              result.addressType == townKey, result.name == town,
              let names = result.nameDetails, !names.isEmpty,
              NominatimLocales.displayName(names, languages: [templateLanguage]) == town,
              let derived = NominatimLocales.displayName(names, languages: [language])
        else { return nil }
        return .some(derived)
    }
}
