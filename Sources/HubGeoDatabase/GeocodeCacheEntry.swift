import Foundation
import HubGeoModel


/// One cached answer for a point in a language from one endpoint at one zoom.
package struct GeocodeCacheEntry: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// Asked in this language.
        case request
        /// Derived without a request from another language's answer for the same point (see
        /// `CachedReverseGeocoder`); `rawResponse` is that answer.
        case derived
    }

    public var coordinate: GeocodeCoordinate
    public var language: String
    public var endpoint: String
    public var zoom: Int
    public var status: GeocodeStatus
    public var town: String?
    public var townKey: String?
    public var country: String?
    public var countryCode: String?
    public var source: Source
    public var rawResponse: String
    public var fetchedAt: Date

    public init(coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int,
                status: GeocodeStatus, town: String?, townKey: String?, country: String?,
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

    /// The localized place this entry gives (town and country nil for a no-result).
    public var localizedPlace: LocalizedPlace {
        LocalizedPlace(language: language, town: town, country: country)
    }
}
