import Foundation
import HubGeoDatabase
import HubGeoModel

/// The `localize` batch: the localized town and country of every organization in every asked
/// language, from the cache or from Nominatim, each answer committed as it arrives so that an
/// interrupted run resumes where it stopped.
///
/// Work is per distinct (rounded) coordinate, so organizations sharing a point cost one lookup;
/// each point goes through the shared cached step (`CachedReverseGeocoder`), whose request
/// economy fills further languages without a request wherever the answer is certain to equal
/// asking: about one request per distinct point, plus one per country, plus one per point
/// whose returned object is not its town.
public final class Localizer {
    /// What to localize.
    public struct Options: Sendable {
        /// The languages to localize into (`nl`, `de`, ...).
        public var languages: [String]
        /// Only clubs or only museums; nil for both.
        public var type: OrganizationType?
        /// Answer from the cache only; never touch the network.
        public var offline: Bool

        /// Options for `languages`, organizations of `type`, from the cache only when `offline`.
        public init(languages: [String], type: OrganizationType? = nil, offline: Bool = false) {
            self.languages = languages
            self.type = type
            self.offline = offline
        }
    }

    /// Counts so far; also the closing summary.
    public struct Progress: Sendable, Equatable {
        /// The organizations whose places are localized.
        public var organizations = 0
        /// Distinct coordinates to do, and done.
        public var total = 0
        /// Distinct coordinates done (see ``total``).
        public var done = 0
        /// The number of languages.
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
        /// The counts at the end.
        public var progress: Progress
        /// The error that stopped the batch early (403, 429, budget, ...), if any.
        public var stoppedBy: GeocodeError?
        /// True when `shouldStop` or `Interruption` (Ctrl-C, SIGTERM) ended the run.
        public var interrupted = false
        /// The last failure of a place that did not stop the batch, for the message.
        public var lastFailure: GeocodeError?

        /// True when every place is localized: nothing stopped the run and nothing failed.
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
    static let unansweredPlacesBeforeStopping = CachedReverseGeocoder.unansweredPlacesBeforeStopping

    /// Runs the batch. `progress` is called after each point; `shouldStop` and `Interruption`
    /// (SIGINT, SIGTERM) are checked before each request and point. Store errors are thrown; geocoding errors end up in the summary.
    public func run(_ options: Options, progress report: (Progress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Summary {
        let start = clock.now()
        let points = try store.distinctCoordinates(type: options.type)
        var summary = Summary(progress: Progress())
        summary.progress.organizations = points.reduce(0) { $0 + $1.organizations }
        summary.progress.total = points.count
        summary.progress.languages = options.languages.count
        let step = CachedReverseGeocoder(cache: store.geocodeCache, client: client, configuration: configuration)
        let requestsBefore = step.requestCount

        func update() {
            summary.progress.elapsed = clock.now() - start
            summary.progress.requests = step.requestCount - requestsBefore
        }

        for (coordinate, _) in points {
            if shouldStop() || Interruption.isRequested { summary.interrupted = true; break }
            let point = try step.lookUp(coordinate, languages: options.languages, offline: options.offline, shouldStop: shouldStop)
            summary.progress.cacheHits += point.cacheHits
            summary.progress.fetched += point.fetched
            summary.progress.derived += point.derived
            summary.progress.failures += point.failures
            summary.progress.missingOffline += point.missingOffline
            summary.progress.noResult += point.answers.values.filter { $0.status == .noResult }.count
            if let failure = point.lastFailure { summary.lastFailure = failure }
            if point.interrupted { summary.interrupted = true; break }
            if let stop = point.stoppedBy { summary.stoppedBy = stop; break }
            summary.progress.done += 1
            update()
            report(summary.progress)
        }
        update()
        return summary
    }
}
