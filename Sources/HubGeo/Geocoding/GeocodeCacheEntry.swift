import Foundation
import HubGeoModel

/// One cached answer for a point in a language from one endpoint at one zoom.
public struct GeocodeCacheEntry: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// Asked in this language.
        case request
        /// Derived without a request from another language's answer for the same point (see
        /// ``CachedReverseGeocoder``); `rawResponse` is that answer.
        case derived
    }

    public var coordinate: GeocodeCoordinate
    public var language: String
    public var endpoint: String
    public var zoom: Int
    public var status: ReverseGeocodeResult.Status
    public var town: String?
    public var townKey: String?
    public var country: String?
    public var countryCode: String?
    public var source: Source
    public var rawResponse: String
    public var fetchedAt: Date

    public init(coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int,
                status: ReverseGeocodeResult.Status, town: String?, townKey: String?, country: String?,
                countryCode: String?, source: Source, rawResponse: String, fetchedAt: Date) {
        self.coordinate = coordinate
        self.language = language
        self.endpoint = endpoint
        self.zoom = zoom
        self.status = status
        self.town = town
        self.townKey = townKey
        self.country = country
        self.countryCode = countryCode
        self.source = source
        self.rawResponse = rawResponse
        self.fetchedAt = fetchedAt
    }

    /// The entry for an answer obtained by asking in `language`.
    public init(asked answer: NominatimClient.Answer, at coordinate: GeocodeCoordinate, language: String,
                endpoint: String, zoom: Int, fetchedAt: Date = Date()) {
        let result = answer.result
        self.init(coordinate: coordinate, language: language, endpoint: endpoint, zoom: zoom, status: result.status,
                  town: result.town, townKey: result.townKey, country: result.country, countryCode: result.countryCode,
                  source: .request, rawResponse: String(decoding: answer.body, as: UTF8.self), fetchedAt: fetchedAt)
    }

    /// The localized place this entry gives (town and country nil for a no-result).
    public var localizedPlace: LocalizedPlace {
        LocalizedPlace(language: language, town: town, country: country)
    }

    /// The answer as parsed from ``rawResponse``; nil when it cannot be read.
    var parsedResponse: ReverseGeocodeResult? {
        try? NominatimResponseParser.parse(Data(rawResponse.utf8))
    }
}
