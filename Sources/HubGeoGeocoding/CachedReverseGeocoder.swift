import Foundation
import HubGeoDatabase
import HubGeoModel

/// The cached reverse-geocode step that `localize` (``Localizer``) and `validate --geocode`
/// (``TownCheck``) share: for one point and the languages wanted, the cached answers, else
/// answers asked from Nominatim or derived without a request, each stored in the
/// ``GeocodeCache`` as it arrives. Several points in a row without any response stop it
/// (the network or the server is down, not the place).
///
/// **Request economy.** The first missing language of a point is asked at the configured zoom
/// with `namedetails=1`. Another language is *derived* without a request only when the result
/// is certain to equal that language's own answer at that zoom:
/// - "Unable to geocode" does not depend on the language: no-result in every language.
/// - Which object Nominatim returns, and so which address keys exist, does not depend on the
///   language either; only names do. No town key: no town in any language.
/// - Nominatim names every object, and every part of an address, with the same rule
///   (``NominatimLocales``) applied to that object's name tags. So the town's name in another
///   language follows from the town object's tags: from the answer itself when its object *is*
///   the town (its `addresstype` is the town key and its name the town), else from an answer
///   asked at the town's zoom (10 for a city) whose object is checked to be the same town: same
///   `addresstype` and name in the asked language, and the same address above it.
/// - The country's name follows from the country object's tags (a zoom-3 answer, or a point
///   where Nominatim knows nothing but the country), once its name in the asked language is
///   checked against the point's answer; or from an earlier answer asked in that language.
/// Region variants (`en-GB`) and language lists are always asked.
///
/// The town and country requests are made only where they save requests: with `n` further
/// languages to fill, a town request when `n >= 2` (its cost, plus a country request if one is
/// needed, must stay below `n`), a country request when `n >= 1` (it also serves every later
/// point of that country in any language). So a run costs at most one request per distinct
/// point, one per country, and one per point whose answer is not its town.
package final class CachedReverseGeocoder {
    /// The cache language of answers asked without `accept-language`: the places' local names.
    package static let localNames = "local"

    /// After this many points in a row get no response at all (each after its own retries),
    /// the step stops with ``GeocodeError/unreachable(_:placesInARow:)``.
    package static let unansweredPlacesBeforeStopping = 3

    /// The zoom whose answer is a town of this address key itself: 10 caps the search rank at 16
    /// (cities, municipalities), 12 at 18 (towns), 13 at 19 (villages, suburbs), 14 at 22 (hamlets).
    static let townZooms = ["city": 10, "municipality": 10, "town": 12, "village": 13, "suburb": 13, "hamlet": 14]

    /// The zoom whose answer is the country itself.
    static let countryZoom = 3

    /// What became of one point.
    package struct PointResult {
        /// Every answer cached for the point at the configured zoom before this step, in any language.
        package var cached: [GeocodeCacheEntry]
        /// The answers of the languages asked for, cached or new, by language.
        package var answers: [String: GeocodeCacheEntry] = [:]
        /// Languages answered by the cache, by a request in that language, or derived.
        package var cacheHits = 0
        package var fetched = 0
        package var derived = 0
        /// Languages left unanswered because a request failed.
        package var failures = 0
        /// Languages left unanswered because the step ran offline.
        package var missingOffline = 0
        /// A failure that stops the batch (403, 429, budget, unreachable, ...).
        package var stoppedBy: GeocodeError?
        /// The last failure that did not stop the batch.
        package var lastFailure: GeocodeError?
        /// `shouldStop` said stop before a request.
        package var interrupted = false

        /// The new answers (asked or derived).
        package var new: [GeocodeCacheEntry] {
            let cachedLanguages = Set(cached.map(\.language))
            return answers.values.filter { !cachedLanguages.contains($0.language) }.sorted { $0.language < $1.language }
        }
    }

    package let cache: GeocodeCache
    private let client: NominatimClient?
    private let configuration: NominatimConfiguration
    private var unansweredInARow = 0

    /// `client` nil: cached answers only.
    package init(cache: GeocodeCache, client: NominatimClient?, configuration: NominatimConfiguration) {
        self.cache = cache
        self.client = client
        self.configuration = configuration
    }

    /// HTTP requests sent so far by the client, retries included.
    package var requestCount: Int { client?.requestCount ?? 0 }

    private var endpoint: String { configuration.endpointKey }

    /// The answers for `point` in `languages` (``localNames`` for the local names): from the
    /// cache, else derived or asked and stored. `offline` (or no client): the cache only.
    /// `shouldStop` is checked before each request, as is ``Interruption`` (which also cuts a
    /// request in flight short); either marks the result interrupted. Store errors are thrown; geocoding errors
    /// end up in the result.
    package func lookUp(_ point: GeocodeCoordinate, languages: [String], offline: Bool = false,
                       shouldStop: () -> Bool = { false }) throws -> PointResult {
        var result = PointResult(cached: try cache.entries(point, endpoint: endpoint, zoom: configuration.zoom))
        for entry in result.cached where languages.contains(entry.language) {
            result.answers[entry.language] = entry
            result.cacheHits += 1
        }
        var missing = languages.filter { result.answers[$0] == nil }
        guard !missing.isEmpty else { return result }
        guard !offline, let client else {
            result.missingOffline = missing.count
            return result
        }
        var names = PointNames(point: point, answers: result.cached.filter { $0.source == .request }.compactMap(Answer.init))
        var planned = false
        while let language = missing.first {
            if let entry = try derive(point, language: language, names: &names) {
                try cache.save(entry)
                result.answers[language] = entry
                result.derived += 1
                missing.removeFirst()
                continue
            }
            if shouldStop() || Interruption.isRequested {
                result.interrupted = true
                return result
            }
            do {
                if !planned, names.primary != nil {
                    planned = true
                    try askForNames(point, languages: missing, names: &names, client: client)
                    continue
                }
                let answer = try client.reverse(point.point, language: language == Self.localNames ? nil : language)
                answered()
                let entry = GeocodeCacheEntry(asked: answer, at: point, language: language, endpoint: endpoint,
                                              zoom: configuration.zoom)
                try cache.save(entry)
                try learnCountryNames(from: answer, language: language)
                names.answers.append(Answer(language: language, result: answer.result, raw: entry.rawResponse))
                result.answers[language] = entry
                result.fetched += 1
                missing.removeFirst()
            } catch GeocodeError.interrupted {
                result.interrupted = true
                return result
            } catch let error as GeocodeError {
                failed(error, languages: missing.count, result: &result)
                return result
            }
        }
        return result
    }

    /// Records a failed request: the point's remaining languages fail too (they would most
    /// likely fail the same way), and a run of unanswered points stops the step.
    private func failed(_ error: GeocodeError, languages: Int, result: inout PointResult) {
        if error.stopsBatch {
            result.stoppedBy = error
            return
        }
        result.failures += languages
        result.lastFailure = error
        if case .network(let networkError) = error {
            unansweredInARow += 1
            if unansweredInARow >= Self.unansweredPlacesBeforeStopping {
                result.stoppedBy = .unreachable(networkError, placesInARow: unansweredInARow)
            }
        }
    }

    private func answered() { unansweredInARow = 0 }

    // MARK: - What a point's answers say

    /// An answer asked at the configured zoom, usable to derive other languages.
    struct Answer {
        var language: String
        var result: ReverseGeocodeResult
        var raw: String

        init(language: String, result: ReverseGeocodeResult, raw: String) {
            self.language = language
            self.result = result
            self.raw = raw
        }

        init?(_ entry: GeocodeCacheEntry) {
            guard let result = entry.parsedResponse else { return nil }
            self.init(language: entry.language, result: result, raw: entry.rawResponse)
        }

        /// Derivation needs plain languages on both sides (see ``NominatimLocales/isPlainLanguage(_:)``).
        var isPlain: Bool { NominatimLocales.isPlainLanguage(language) }
    }

    /// The answers known for one point: asked at the configured zoom, and asked for the names
    /// of its town (loaded from the cache once).
    struct PointNames {
        var point: GeocodeCoordinate
        var answers: [Answer]
        /// The answer asked at the town's zoom; `.some(nil)` once looked up and absent.
        var town: Answer??

        /// The first answer in a plain language that found a place: the one requests are planned from.
        var primary: Answer? { answers.first { $0.isPlain && $0.result.status == .found } }
    }

    /// The entry for `language` derived from the point's answers, or nil when it cannot be
    /// certain to equal a request in `language` (see the type's documentation).
    func derive(_ point: GeocodeCoordinate, language: String, names: inout PointNames) throws -> GeocodeCacheEntry? {
        for answer in names.answers {
            let result = answer.result
            func entry(town: String?, country: String?) -> GeocodeCacheEntry {
                GeocodeCacheEntry(coordinate: point, language: language, endpoint: endpoint, zoom: configuration.zoom,
                                  status: result.status, town: town, townKey: result.townKey, country: country,
                                  countryCode: result.countryCode, source: .derived, rawResponse: answer.raw, fetchedAt: Date())
            }
            if result.status == .noResult { return entry(town: nil, country: nil) }
            guard answer.isPlain, NominatimLocales.isPlainLanguage(language),
                  let town = try townName(of: answer, in: language, names: &names),
                  let country = try countryName(of: answer, in: language)
            else { continue }
            return entry(town: town, country: country)
        }
        return nil
    }

    /// `.some(nil)`: no town in any language; `.some(name)`: the town in `language`; nil: must ask.
    func townName(of answer: Answer, in language: String, names: inout PointNames) throws -> String?? {
        let result = answer.result
        guard let key = result.townKey, result.town != nil else { return .some(nil) }
        if Self.isTown(result, of: result, askedIn: answer.language),
           let name = NominatimLocales.displayName(result.nameDetails ?? [], languages: [language]) {
            return .some(name)
        }
        if let townAnswer = try townNamesAnswer(names: &names, key: key), townAnswer.language == answer.language,
           Self.isTown(townAnswer.result, of: result, askedIn: answer.language),
           let name = NominatimLocales.displayName(townAnswer.result.nameDetails ?? [], languages: [language]) {
            return .some(name)
        }
        return nil
    }

    /// True when `object` (an answer's returned object) is the town of `answer`, both asked in
    /// `language`: the object is of the town's key and has its name, its name tags give that
    /// name by Nominatim's rule, and everything its address says above it, `answer`'s says too.
    static func isTown(_ object: ReverseGeocodeResult, of answer: ReverseGeocodeResult, askedIn language: String) -> Bool {
        guard object.status == .found, let key = answer.townKey, let town = answer.town,
              object.addressType == key, object.name == town, object.countryCode == answer.countryCode,
              let tags = object.nameDetails, !tags.isEmpty,
              NominatimLocales.displayName(tags, languages: [language]) == town
        else { return false }
        return object.address.allSatisfy { key, value in
            key == "postcode" || key == "country_code" || answer.address[key] == value
        }
    }

    /// `.some(nil)`: no country; `.some(name)`: the country in `language`; nil: must ask.
    func countryName(of answer: Answer, in language: String) throws -> String?? {
        let result = answer.result
        guard let code = result.countryCode else { return result.country == nil ? .some(nil) : nil }
        guard let asked = result.country else { return nil }
        if let known = try cache.countryName(code: code, language: language, endpoint: endpoint) { return .some(known) }
        if let country = try countryNamesAnswer(code: code),
           NominatimLocales.displayName(country.nameDetails ?? [], languages: [answer.language]) == asked,
           let name = NominatimLocales.displayName(country.nameDetails ?? [], languages: [language]) {
            return .some(name)
        }
        return nil
    }

    /// The stored answer whose object is the country `code` itself, when it is one.
    private func countryNamesAnswer(code: String) throws -> ReverseGeocodeResult? {
        guard let stored = try cache.countryNamesAnswer(code: code, endpoint: endpoint),
              let result = try? NominatimResponseParser.parse(Data(stored.raw.utf8)),
              Self.isCountry(result, code: code, askedIn: stored.language)
        else { return nil }
        return result
    }

    /// True when `result`'s object is the country `code` with its name tags, which give its
    /// name in `language` by Nominatim's rule.
    static func isCountry(_ result: ReverseGeocodeResult, code: String, askedIn language: String) -> Bool {
        guard result.status == .found, result.addressType == "country", result.countryCode == code,
              let tags = result.nameDetails, !tags.isEmpty, NominatimLocales.isPlainLanguage(language),
              let name = result.name, result.country == name
        else { return false }
        return NominatimLocales.displayName(tags, languages: [language]) == name
    }

    /// Keeps an asked answer whose object is a country (at sea level of detail: a point where
    /// Nominatim knows nothing but the country) as that country's names, if none are kept yet.
    private func learnCountryNames(from answer: NominatimClient.Answer, language: String) throws {
        guard let code = answer.result.countryCode, Self.isCountry(answer.result, code: code, askedIn: language),
              try cache.countryNamesAnswer(code: code, endpoint: endpoint) == nil
        else { return }
        try cache.saveCountryNamesAnswer(code: code, language: language, endpoint: endpoint,
                                         raw: String(decoding: answer.body, as: UTF8.self))
    }

    /// The stored answer asked at the zoom of the town key, loaded once per point.
    private func townNamesAnswer(names: inout PointNames, key: String) throws -> Answer? {
        if let town = names.town { return town }
        guard let zoom = Self.townZooms[key], zoom < configuration.zoom,
              let stored = try cache.townNamesAnswer(names.point, endpoint: endpoint, zoom: zoom),
              let result = try? NominatimResponseParser.parse(Data(stored.raw.utf8))
        else {
            names.town = .some(nil)
            return nil
        }
        let answer = Answer(language: stored.language, result: result, raw: stored.raw)
        names.town = .some(answer)
        return answer
    }

    // MARK: - Requests for names

    /// Asks, where that saves requests, for the names of the point's town (at the town's zoom)
    /// and of its country (at zoom 3), in the language of the point's first answer. The answers
    /// are stored for later runs; whether they may be used is checked when deriving.
    private func askForNames(_ point: GeocodeCoordinate, languages: [String], names: inout PointNames,
                             client: NominatimClient) throws {
        guard let primary = names.primary else { return }
        let result = primary.result
        let derivable = languages.filter(NominatimLocales.isPlainLanguage)
        guard !derivable.isEmpty else { return }

        var townKnown = true
        var townRequestZoom: Int?
        if let key = result.townKey {
            let probe = derivable[0]
            townKnown = try townName(of: primary, in: probe, names: &names) != nil
            if !townKnown, !Self.isTownObjectOf(result), let zoom = Self.townZooms[key], zoom < configuration.zoom,
               names.town.flatMap({ $0 }) == nil {
                townRequestZoom = zoom
            }
        }
        guard townKnown || townRequestZoom != nil else { return }  // every language must be asked

        var countryUnknown = false
        if let code = result.countryCode, result.country != nil, try cache.countryNamesAnswer(code: code, endpoint: endpoint) == nil {
            countryUnknown = try derivable.contains(where: { try self.cache.countryName(code: code, language: $0, endpoint: self.endpoint) == nil })
        }
        let cost = (townRequestZoom == nil ? 0 : 1) + (countryUnknown ? 1 : 0)
        // A town request must save requests now; a country request may just break even, since
        // it also names the country for every later point in every language.
        guard cost > 0, townRequestZoom == nil ? cost <= derivable.count : cost < derivable.count else { return }

        if let zoom = townRequestZoom {
            let answer = try client.reverse(point.point, language: primary.language, zoom: zoom)
            answered()
            let raw = String(decoding: answer.body, as: UTF8.self)
            try cache.saveTownNamesAnswer(point, endpoint: endpoint, zoom: zoom, language: primary.language, raw: raw)
            names.town = .some(Answer(language: primary.language, result: answer.result, raw: raw))
            guard Self.isTown(answer.result, of: result, askedIn: primary.language) else { return }
        }
        if countryUnknown, let code = result.countryCode {
            let answer = try client.reverse(point.point, language: primary.language, zoom: Self.countryZoom)
            answered()
            // Only the country the point's answer names, by the name it gives it.
            if Self.isCountry(answer.result, code: code, askedIn: primary.language), answer.result.country == result.country {
                try cache.saveCountryNamesAnswer(code: code, language: primary.language, endpoint: endpoint,
                                                 raw: String(decoding: answer.body, as: UTF8.self))
            }
        }
    }

    /// True when an answer's own object is its town (whether or not it came with name tags):
    /// asking at the town's zoom could only return it again.
    static func isTownObjectOf(_ result: ReverseGeocodeResult) -> Bool {
        result.townKey != nil && result.addressType == result.townKey && result.name == result.town
    }
}
