import HubGeoDatabase
import HubGeoModel

/// The fields an export writes for one organization, in order, absent and empty values left
/// out: GeoJSON `properties` and KML `ExtendedData` carry the same ones.
package struct ExportProperties: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
    }

    /// Every field an export may write, in the order it writes them.
    package static let fieldNames = [
        "name", "nickName", "type", "town", "localizedTown", "localizedTownSource", "localizedCountry", "language",
        "website", "wikipedia", "remark", "remarkLanguage", "fotobondNumber", "memberCount",
    ]

    package private(set) var fields: [(name: String, value: Value)] = []

    /// The stable feature id (from the identity town + full name).
    package var id: String
    package var type: OrganizationType
    package var coordinates: GeoPoint
    /// The remark chosen (in `language`, else English, else any).
    package var remark: LocalizedRemark?
    package var localized: LocalizedPlace?

    /// The properties of `match`. `language` (ISO 639-1) chooses the remark, falling back to
    /// English, then any; without it the language of `match.localized` does. The localized
    /// town, its source (`nominatim` or `level1`), the country and the language come from
    /// `match.localized` when the query filled it.
    package init(_ match: PlaceMatch, language: String? = nil) {
        let organization = match.organization
        id = organization.stableID
        type = organization.type
        coordinates = organization.coordinates
        localized = match.localized
        remark = organization.remarks.preferred(language: language ?? match.localized?.language)
        add("name", organization.fullName)
        add("nickName", organization.nickName)
        add("type", organization.type.rawValue)
        add("town", organization.town)
        if let localized = match.localized {
            add("localizedTown", localized.town)
            add("localizedTownSource", localized.town == nil ? nil : localized.townSource?.rawValue)
            add("localizedCountry", localized.country)
            add("language", localized.language)
        }
        add("website", organization.website)
        add("wikipedia", organization.wikipedia)
        add("remark", remark?.value)
        add("remarkLanguage", remark?.language)
        if let number = organization.fotobondNumber { fields.append(("fotobondNumber", .integer(number))) }
        if organization.type == .club, let count = organization.memberCount { fields.append(("memberCount", .integer(count))) }
    }

    /// The value of field `name`, if written.
    package subscript(name: String) -> Value? {
        fields.first { $0.name == name }?.value
    }

    package func string(_ name: String) -> String? {
        if case .string(let text) = self[name] { return text }
        return nil
    }

    private mutating func add(_ name: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        fields.append((name, .string(value)))
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.type == rhs.type && lhs.coordinates == rhs.coordinates && lhs.remark == rhs.remark
            && lhs.localized == rhs.localized
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}

/// An exporter: `begin`, then `write` once per organization, then `finish`.
public protocol OrganizationWriter: AnyObject {
    /// Starts the output.
    func begin() throws
    /// Writes one organization.
    func write(_ match: PlaceMatch) throws
    /// Ends the output.
    func finish() throws
}
