import Foundation
import HubGeoDatabase
import HubGeoJSON

/// What one Nominatim reverse lookup says about a point, in one language.
package struct ReverseGeocodeResult: Sendable, Equatable {
    /// Whether Nominatim found a place (the cache stores it: ``GeocodeStatus``).
    package typealias Status = GeocodeStatus

    /// One raw name tag of the returned object (`namedetails`), in the server's order.
    package struct NameTag: Sendable, Equatable, Codable {
        package var key: String
        package var value: String

        package init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The `address` keys that name a locality, in the order hubgeo prefers them:
    /// `city`, `town`, `village`, `municipality`, then `hamlet` and `suburb` as a last resort.
    package static let townKeys = ["city", "town", "village", "municipality", "hamlet", "suburb"]

    package var status: Status
    /// The localized town: the value of the first of ``townKeys`` present in `address`.
    package var town: String?
    /// Which address key ``town`` came from.
    package var townKey: String?
    /// `address.country`, localized.
    package var country: String?
    /// `address.country_code`, lower case.
    package var countryCode: String?
    /// Every `address` member with a text value (`village`, `municipality`, `road`, ...), localized.
    package var address: [String: String] = [:]
    /// The returned object's `addresstype` (`city`, `village`, `road`, ...).
    package var addressType: String?
    /// The returned object's localized `name`.
    package var name: String?
    package var displayName: String?
    /// The returned object's raw name tags, when `namedetails=1` was asked.
    package var nameDetails: [NameTag]?
    package var placeID: Int?
    package var osmType: String?
    package var osmID: Int?
    package var latitude: Double?
    package var longitude: Double?

    package init(status: Status, town: String? = nil, townKey: String? = nil, country: String? = nil,
                countryCode: String? = nil, addressType: String? = nil, name: String? = nil,
                displayName: String? = nil, nameDetails: [NameTag]? = nil, placeID: Int? = nil,
                osmType: String? = nil, osmID: Int? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.status = status
        self.town = town
        self.townKey = townKey
        self.country = country
        self.countryCode = countryCode
        self.addressType = addressType
        self.name = name
        self.displayName = displayName
        self.nameDetails = nameDetails
        self.placeID = placeID
        self.osmType = osmType
        self.osmID = osmID
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The "Unable to geocode" answer.
    package static let noResult = ReverseGeocodeResult(status: .noResult)
}

/// Reads Nominatim `jsonv2` reverse answers. Numbers may also come as strings (older servers),
/// and strings as numbers; unknown members are ignored.
package enum NominatimResponseParser {
    /// Why a body is not a usable answer.
    package struct Failure: Error, Equatable, Sendable {
        package var reason: String
    }

    /// Parses a body that came with HTTP 200.
    package static func parse(_ body: Data) throws(Failure) -> ReverseGeocodeResult {
        let json: JSONValue
        do {
            json = try JSONParser().parse(body)
        } catch {
            let start = String(decoding: body.prefix(60), as: UTF8.self)
            throw Failure(reason: "not JSON (\(error.description)); the body starts with \"\(start)\"")
        }
        guard case .object = json else { throw Failure(reason: "expected a JSON object, got \(json.kindDescription)") }
        if let error = json["error"] {
            if case .string(let message) = error, message == "Unable to geocode" { return .noResult }
            throw Failure(reason: "error \(errorMessage(error) ?? "(no message)")")
        }
        guard let result = object(json) else {
            throw Failure(reason: "no \"address\" object (was addressdetails=1 sent?)")
        }
        return result
    }

    /// One returned object of a `jsonv2` answer with `addressdetails=1` (a reverse answer, or one
    /// element of a search answer's array), read by the one set of address rules: the town is the
    /// first of ``ReverseGeocodeResult/townKeys`` in `address`. Nil without an `address` object.
    static func object(_ json: JSONValue) -> ReverseGeocodeResult? {
        guard let address = json["address"], case .object = address else { return nil }
        var result = ReverseGeocodeResult(status: .found)
        for key in ReverseGeocodeResult.townKeys {
            if let value = string(address[key]), !value.isEmpty {
                result.town = value
                result.townKey = key
                break
            }
        }
        if case .object(let members) = address {
            for member in members {  // the last of duplicate keys wins, as in `JSONValue[key]`
                if let value = string(member.value) { result.address[member.key] = value }
            }
        }
        result.country = string(address["country"]).flatMap { $0.isEmpty ? nil : $0 }
        result.countryCode = string(address["country_code"])?.lowercased()
        result.addressType = string(json["addresstype"])
        result.name = string(json["name"])
        result.displayName = string(json["display_name"])
        if let details = json["namedetails"], case .object(let tags) = details {
            result.nameDetails = tags.compactMap { member in string(member.value).map { .init(member.key, $0) } }
        }
        result.placeID = integer(json["place_id"])
        result.osmType = string(json["osm_type"])
        result.osmID = integer(json["osm_id"])
        result.latitude = number(json["lat"])
        result.longitude = number(json["lon"])
        return result
    }

    /// The message of a Nominatim error body: `{"error":{"code":400,"message":"..."}}`,
    /// `{"error":"..."}`, or a plain-text body. Nil when there is nothing readable.
    package static func errorMessage(in body: Data) -> String? {
        if let json = try? JSONParser().parse(body) {
            if let error = json["error"] { return errorMessage(error) }
            if let title = string(json["title"]) { return title }
            return nil
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text.hasPrefix("<") && !text.contains("<error") ? nil : text
    }

    static func errorMessage(_ error: JSONValue) -> String? {
        if let text = string(error) { return text }
        return string(error["message"])
    }

    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: return nil
        }
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    static func integer(_ value: JSONValue?) -> Int? {
        guard let number = number(value), number == number.rounded(), abs(number) < 9e15 else { return nil }
        return Int(number)
    }
}
