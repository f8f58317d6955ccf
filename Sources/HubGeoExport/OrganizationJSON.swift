import Foundation
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// The JSON shape of an organization in `--format json` output: every field, flat,
/// absent values omitted, distance in metres when the query had a centre.
public struct OrganizationJSON: Encodable, Sendable {
    public var id: String
    public var type: OrganizationType
    public var fullName: String
    public var nickName: String
    public var town: String
    public var latitude: Double
    public var longitude: Double
    public var distanceMeters: Double?
    public var website: String?
    public var wikipedia: String?
    public var level2URL: String?
    public var maintainerEmail: String?
    public var fotobondNumber: Int?
    public var memberCount: Int?
    /// Remark per language code.
    public var remarks: [String: String]?
    public var level2Overrides: [FieldOverride]?
    public var members: [Member]?
    public var level1Source: String
    public var level2Source: String?
    /// The language asked with `--lang`, and the cached localized town and country (absent when
    /// not cached; the town is the Level 1 one where the answer has none).
    public var language: String?
    public var localizedTown: String?
    /// Where `localizedTown` came from: `nominatim` or `level1`.
    public var localizedTownSource: LocalizedPlace.TownSource?
    public var localizedCountry: String?

    public init(_ organization: Organization, distanceMeters: Double? = nil, localized: LocalizedPlace? = nil) {
        language = localized?.language
        localizedTown = localized?.town
        localizedTownSource = localized?.town == nil ? nil : localized?.townSource
        localizedCountry = localized?.country
        id = organization.stableID
        type = organization.type
        fullName = organization.fullName
        nickName = organization.nickName
        town = organization.town
        latitude = organization.coordinates.latitude
        longitude = organization.coordinates.longitude
        self.distanceMeters = distanceMeters.map { ($0 * 10).rounded() / 10 }
        website = organization.website
        wikipedia = organization.wikipedia
        level2URL = organization.level2URL
        maintainerEmail = organization.maintainerEmail
        fotobondNumber = organization.fotobondNumber
        memberCount = organization.memberCount
        remarks = organization.remarks.isEmpty ? nil
            : Dictionary(organization.remarks.map { ($0.language, $0.value) }, uniquingKeysWith: { first, _ in first })
        level2Overrides = organization.overrides.isEmpty ? nil : organization.overrides
        members = organization.members.isEmpty ? nil : organization.members
        level1Source = organization.level1Source
        level2Source = organization.level2Source
    }
}
