import Foundation
import HubGeoModel

/// One forward search: what to look for, in which language, near where, and how many answers.
/// Its `cacheKey` is what the geocode cache files the answer under.
public struct PlaceSearch: Sendable, Equatable {
    /// The most candidates Nominatim gives for one search (its own cap).
    public static let maximumLimit = 40
    /// Candidates asked for when no limit is given.
    public static let defaultLimit = 5
    /// Half the side of the box that ``near`` becomes, in kilometres: about a day's cycling, so
    /// that a town's name finds that town rather than a bigger namesake elsewhere, while places
    /// outside the box are still found (the box is a bias, not a bound).
    public static let biasKilometers = 25.0

    /// The text to look for, as typed (white space at either end and runs of it do not count).
    public var query: String
    /// The language of names (`accept-language`); nil: the places' local names.
    public var language: String?
    /// A point to prefer candidates near (Nominatim's `viewbox`, not bounded).
    public var near: GeoPoint?
    /// How many candidates at most, 1 to ``maximumLimit``.
    public var limit: Int

    /// A search for `query`; `language` nil asks for the local names.
    public init(query: String, language: String? = nil, near: GeoPoint? = nil, limit: Int = PlaceSearch.defaultLimit) {
        self.query = query
        self.language = language
        self.near = near
        self.limit = limit
    }

    /// ``query`` as sent: trimmed, runs of white space as one space.
    public var normalizedQuery: String {
        query.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Why the search cannot be sent, or nil: an empty query, a limit out of range, a point off the globe.
    public var problem: String? {
        if normalizedQuery.isEmpty { return "the query is empty" }
        if !(1...Self.maximumLimit).contains(limit) { return "the limit must be 1 to \(Self.maximumLimit), not \(limit)" }
        if let near, !near.isValid { return "the point to search near is not a latitude -90 to 90 and a longitude -180 to 180" }
        return nil
    }

    /// Nominatim's `viewbox` for ``near``: `left,top,right,bottom` in degrees, the box that
    /// `near` and `bbox` search (`SearchBoxes`) for ``biasKilometers`` around the point; where that
    /// box is split at ±180°, the part that holds the point (a viewbox cannot wrap); nil without ``near``.
    public var viewbox: String? {
        guard let near else { return nil }
        let boxes = SearchBoxes.covering(center: near, radiusMeters: Self.biasKilometers * 1000)
        guard let box = boxes.first(where: { ($0.minLongitude...$0.maxLongitude).contains(near.longitude) }) ?? boxes.first else {
            return nil
        }
        return [box.minLongitude, box.maxLatitude, box.maxLongitude, box.minLatitude].map { NominatimClient.format($0) }.joined(separator: ",")
    }

    /// What the cache files the answer under besides the endpoint: the query as sent, the
    /// language (``CachedReverseGeocoder/localNames`` for none), the viewbox (empty for none) and the limit.
    package var cacheKey: (query: String, language: String, viewbox: String, limit: Int) {
        (normalizedQuery, language ?? CachedReverseGeocoder.localNames, viewbox ?? "", limit)
    }
}
