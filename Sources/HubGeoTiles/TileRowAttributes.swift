import HubGeoClusters
import HubGeoJSON
import HubGeoModel

/// The properties tiles give organizations, from the database's rows: an organization alone has
/// `id` (its stable id, as every other answer), `name`, `nickName`, `type`, `town`, and with a
/// language `localizedTown` and `localizedCountry`; a co-located group has `organizations`, the
/// JSON text of its organizations' list as `/api/clusters` gives it (by name, at most
/// `groupLimit`).
struct TileRowAttributes: TileAttributes {
    /// The rows the tiles list: all of them (an archive), or those of one tile (a served tile,
    /// read in one query).
    let rows: TileRowTable
    let groupLimit: Int
    /// Of a co-located group larger than `groupLimit`, by its first organization's row id, the
    /// organizations its list shows, when known (``TileCache``): only those are looked at.
    var listed: [Int64: [Int64]] = [:]

    func organization(_ id: Int64) throws -> [TileProperty]? {
        guard let row = rows.row(id) else { return nil }
        var properties = [
            TileProperty("id", row.stableID), TileProperty("name", row.name), TileProperty("nickName", row.nickName),
            TileProperty("type", row.type.rawValue), TileProperty("town", row.town),
        ]
        if let town = row.localizedTown { properties.append(TileProperty("localizedTown", town)) }
        if let country = row.localizedCountry { properties.append(TileProperty("localizedCountry", country)) }
        return properties
    }

    func group(_ ids: ClusterIndex.OrganizationIDs) throws -> [TileProperty] {
        var members = (ids.first.flatMap { listed[$0] } ?? Array(ids)).compactMap { rows.row($0) }
        members.sort { ($0.name, $0.town) < ($1.name, $1.town) }
        var text = "["
        for (index, row) in members.prefix(max(0, groupLimit)).enumerated() {
            text += index == 0 ? "{\"id\":" : ",{\"id\":"
            text += JSONString.quoted(row.stableID, for: .javaScript)
            text += ",\"name\":" + JSONString.quoted(row.name, for: .javaScript)
            text += ",\"nickName\":" + JSONString.quoted(row.nickName, for: .javaScript)
            text += ",\"type\":\"" + row.type.rawValue + "\""
            text += ",\"town\":" + JSONString.quoted(row.town, for: .javaScript)
            if let town = row.localizedTown { text += ",\"localizedTown\":" + JSONString.quoted(town, for: .javaScript) }
            if let country = row.localizedCountry { text += ",\"localizedCountry\":" + JSONString.quoted(country, for: .javaScript) }
            text += "}"
        }
        return [TileProperty("organizations", text + "]")]
    }
}
