import Foundation
import HubGeoJSON
import HubGeoModel

/// One answer of a forward search (``PlaceSearch``): a place Nominatim found, with what a
/// Level 1 entry needs from it. Its town and country follow the same address rules as the
/// reverse lookups of `localize`: the town is the first of `city`, `town`, `village`,
/// `municipality`, `hamlet`, `suburb` in the place's address.
public struct PlaceCandidate: Sendable, Equatable, Codable {
    /// The place's name in the asked language (for a place without one, the first part of its display name).
    public var name: String
    /// What it is: for a settlement or an administrative area its address type (`city`, `town`,
    /// `village`, `municipality`), else its OpenStreetMap type (`museum`, `arts_centre`).
    public var kind: String
    /// Nominatim's `category` (the main OpenStreetMap key: `tourism`, `place`, `boundary`).
    public var category: String?
    /// Nominatim's `type` (that key's value: `museum`, `village`, `administrative`).
    public var type: String?
    /// The town by `localize`'s rule; nil when the address names none.
    public var town: String?
    /// The address key the town came from (`city`, `village`, ...).
    public var townKey: String?
    /// The country in the asked language.
    public var country: String?
    /// The country code, lower case (`nl`).
    public var countryCode: String?
    /// Where it is (Nominatim's centroid of the object).
    public var coordinates: GeoPoint
    /// `node`, `way` or `relation`.
    public var osmType: String?
    /// The OpenStreetMap id within ``osmType``.
    public var osmID: Int?
    /// The `website` tag (or `contact:website`), when the place has one.
    public var website: String?
    /// The `wikipedia` tag (`nl:Fotomuseum Den Haag`), when the place has one.
    public var wikipedia: String?
    /// Nominatim's full display name.
    public var displayName: String?

    /// A candidate with these fields.
    public init(name: String, kind: String, category: String? = nil, type: String? = nil, town: String? = nil,
                townKey: String? = nil, country: String? = nil, countryCode: String? = nil, coordinates: GeoPoint,
                osmType: String? = nil, osmID: Int? = nil, website: String? = nil, wikipedia: String? = nil,
                displayName: String? = nil) {
        self.name = name
        self.kind = kind
        self.category = category
        self.type = type
        self.town = town
        self.townKey = townKey
        self.country = country
        self.countryCode = countryCode
        self.coordinates = coordinates
        self.osmType = osmType
        self.osmID = osmID
        self.website = website
        self.wikipedia = wikipedia
        self.displayName = displayName
    }

    /// The OpenStreetMap page of the object (`https://www.openstreetmap.org/node/42`), when its type and id are known.
    public var openStreetMapURL: String? {
        guard let osmType, ["node", "way", "relation"].contains(osmType), let osmID else { return nil }
        return "https://www.openstreetmap.org/\(osmType)/\(osmID)"
    }
}

/// Reads Nominatim `jsonv2` search answers (`/search?format=jsonv2&addressdetails=1&extratags=1`):
/// an array of places, each read by ``NominatimResponseParser/object(_:)`` (the reverse lookups'
/// address rules) plus its category, type and extra tags. An element without a position or an
/// address is skipped; anything but an array is a ``NominatimResponseParser/Failure``.
package enum NominatimSearchParser {
    /// The categories whose objects are named by their address type (`village`), not their type (`administrative`).
    static let settlementCategories: Set<String> = ["place", "boundary"]

    /// The candidates in a body that came with HTTP 200, best first as Nominatim ranked them.
    package static func parse(_ body: Data) throws(NominatimResponseParser.Failure) -> [PlaceCandidate] {
        let json: JSONValue
        do {
            json = try JSONParser().parse(body)
        } catch {
            let start = String(decoding: body.prefix(60), as: UTF8.self)
            throw .init(reason: "not JSON (\(error.description)); the body starts with \"\(start)\"")
        }
        if case .object = json, let error = json["error"] {
            throw .init(reason: "error \(NominatimResponseParser.errorMessage(error) ?? "(no message)")")
        }
        guard case .array(let elements) = json else {
            throw .init(reason: "expected a JSON array of places, got \(json.kindDescription)")
        }
        return elements.compactMap(candidate)
    }

    /// One element of the array, or nil when it lacks a position or an address.
    static func candidate(_ json: JSONValue) -> PlaceCandidate? {
        guard case .object = json, let place = NominatimResponseParser.object(json),
              let latitude = place.latitude, let longitude = place.longitude
        else { return nil }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isValid else { return nil }
        let category = NominatimResponseParser.string(json["category"])
        let type = NominatimResponseParser.string(json["type"])
        let name = place.name.flatMap { $0.isEmpty ? nil : $0 }
            ?? place.displayName.flatMap { $0.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? ""
        var kind = type ?? place.addressType ?? "place"
        if let category, settlementCategories.contains(category), let addressType = place.addressType { kind = addressType }
        let extra = json["extratags"]
        func tag(_ key: String) -> String? {
            NominatimResponseParser.string(extra?[key]).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        return PlaceCandidate(name: name, kind: kind, category: category, type: type, town: place.town, townKey: place.townKey,
                              country: place.country, countryCode: place.countryCode, coordinates: point,
                              osmType: place.osmType, osmID: place.osmID, website: tag("website") ?? tag("contact:website"),
                              wikipedia: tag("wikipedia"), displayName: place.displayName)
    }
}
