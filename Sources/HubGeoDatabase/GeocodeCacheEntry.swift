import Foundation
import HubGeoModel


/// One cached answer for a point in a language from one endpoint at one zoom.
package struct GeocodeCacheEntry: Sendable, Equatable {
    package enum Source: String, Sendable {
        /// Asked in this language.
        case request
        /// Derived without a request from another language's answer for the same point (see
        /// `CachedReverseGeocoder`); `rawResponse` is that answer.
        case derived
    }

    package var coordinate: GeocodeCoordinate
    package var language: String
    package var endpoint: String
    package var zoom: Int
    package var status: GeocodeStatus
    package var town: String?
    package var townKey: String?
    package var country: String?
    package var countryCode: String?
    package var source: Source
    package var rawResponse: String
    package var fetchedAt: Date

    package init(coordinate: GeocodeCoordinate, language: String, endpoint: String, zoom: Int,
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
    package var localizedPlace: LocalizedPlace {
        LocalizedPlace(language: language, town: town, country: country)
    }
}
