import Foundation
import HubGeoDatabase

extension GeocodeCacheEntry {
    /// The entry for an answer obtained by asking in `language`.
    package init(asked answer: NominatimClient.Answer, at coordinate: GeocodeCoordinate, language: String,
                endpoint: String, zoom: Int, fetchedAt: Date = Date()) {
        let result = answer.result
        self.init(coordinate: coordinate, language: language, endpoint: endpoint, zoom: zoom, status: result.status,
                  town: result.town, townKey: result.townKey, country: result.country, countryCode: result.countryCode,
                  source: .request, rawResponse: String(decoding: answer.body, as: UTF8.self), fetchedAt: fetchedAt)
    }

    /// The answer as parsed from ``rawResponse``; nil when it cannot be read.
    package var parsedResponse: ReverseGeocodeResult? {
        try? NominatimResponseParser.parse(Data(rawResponse.utf8))
    }
}
