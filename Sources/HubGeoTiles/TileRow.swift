import HubGeoDatabase
import HubGeoModel

/// What a tile says of one organization: its stable id, names, type, town and, with a language,
/// the localized town and country (``MapOrganizationRow`` without its place).
struct TileRow: Sendable {
    var stableID: String
    var name: String
    var nickName: String
    var type: OrganizationType
    var town: String
    var localizedTown: String?
    var localizedCountry: String?

    init(_ row: MapOrganizationRow) {
        self.init(stableID: row.stableID, name: row.name, nickName: row.nickName, type: row.type, town: row.town,
                  localizedTown: row.localizedTown, localizedCountry: row.localizedCountry)
    }

    init(stableID: String, name: String, nickName: String, type: OrganizationType, town: String,
         localizedTown: String?, localizedCountry: String?) {
        self.stableID = stableID
        self.name = name
        self.nickName = nickName
        self.type = type
        self.town = town
        self.localizedTown = localizedTown
        self.localizedCountry = localizedCountry
    }
}
