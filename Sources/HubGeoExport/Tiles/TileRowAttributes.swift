import HubGeoClusters
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel
import HubGeoTiles

/// The properties tiles give organizations, from the database's rows: an organization alone has
/// `id` (its stable id, as every other answer), `name`, `nickName`, `type`, `town`, and with a
/// language `localizedTown` and `localizedCountry`; a co-located group has `organizations`, the
/// JSON text of its organizations' list as `/api/clusters` gives it (by name, at most
/// `groupLimit`).
struct TileRowAttributes: TileAttributes {
    /// The rows: all of them at hand (an archive), or read as needed from a snapshot (a tile).
    enum Rows {
        case loaded(TileRowTable)
        /// The connections of a snapshot (``StoreSnapshot/database``), used only while its block runs.
        case snapshot(StoreDatabase, LocalizationSource?)
    }

    let rows: Rows
    let groupLimit: Int

    func row(_ id: Int64) throws -> TileRow? {
        switch rows {
        case .loaded(let rows): return rows.row(id)
        case .snapshot(let database, let localization):
            return try StoreSnapshot(database).mapRows(ids: [id], localization: localization)[id].map(TileRow.init)
        }
    }

    func organization(_ id: Int64) throws -> [TileProperty]? {
        guard let row = try row(id) else { return nil }
        var properties = [
            TileProperty("id", row.stableID), TileProperty("name", row.name), TileProperty("nickName", row.nickName),
            TileProperty("type", row.type.rawValue), TileProperty("town", row.town),
        ]
        if let town = row.localizedTown { properties.append(TileProperty("localizedTown", town)) }
        if let country = row.localizedCountry { properties.append(TileProperty("localizedCountry", country)) }
        return properties
    }

    func group(_ ids: ClusterIndex.OrganizationIDs) throws -> [TileProperty] {
        var members: [TileRow] = []
        switch rows {
        case .loaded(let rows): members = ids.compactMap { rows.row($0) }
        case .snapshot(let database, let localization):
            let found = try StoreSnapshot(database).mapRows(ids: ids, localization: localization)
            members = ids.compactMap { found[$0].map(TileRow.init) }
        }
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
