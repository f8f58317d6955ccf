import HubGeoClusters
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel

/// The GeoJSON of a map view's clusters (``MapClusters``), as `/api/clusters` answers it: a
/// FeatureCollection with the zoom, the number of organizations its items stand for (and
/// `"truncated": true` when the view was cut at the server's cap), and one Point feature per item, whose `kind` says what it is:
///
/// - `"cluster"`: id `"c"` + its number in the index, `count`, `clubs` and `museums` (when the caller
///   gives the counts), `expansionZoom` (the zoom at
///   which it splits), and the box of its organizations as the feature's `bbox` (west, south,
///   east, north);
/// - `"organization"`: id the organization's (as in every other answer), `count` 1, `name`,
///   `nickName`, `type`, `town`;
/// - `"colocated"`: organizations at exactly the same coordinates, which never split: id `"g"` +
///   its number, `count`, `clubs` and `museums` (as for a cluster), and `organizations` (id, name, nickName, type, town; by name, at most the
///   limit the view was asked with).
package enum ClusterGeoJSON {
    /// `museums` gives the museums among an item's organizations (by item id; the rest are clubs).
    package static func collection(_ view: MapClusters, museums: ((Int) -> Int)? = nil) -> String {
        func shares(_ item: ClusterIndex.Item) -> String {
            guard let museums else { return "" }
            let count = museums(item.id)
            return ",\"clubs\":\(item.count - count),\"museums\":\(count)"
        }
        var text = "{\"type\":\"FeatureCollection\",\"zoom\":\(view.zoom),\"organizations\":\(view.organizationCount),"
        if view.truncated { text += "\"truncated\":true," }
        text += "\"features\":["
        text.reserveCapacity(64 + 160 * view.items.count)
        for (position, entry) in view.items.enumerated() {
            let item = entry.item
            if position > 0 { text += "," }
            text += "\n{\"type\":\"Feature\",\"id\":"
            switch item.kind {
            case .cluster:
                let box = item.bounds
                text += "\"c\(item.id)\",\"bbox\":[\(ExportText.coordinate(box.west)),\(ExportText.coordinate(box.south)),"
                    + "\(ExportText.coordinate(box.east)),\(ExportText.coordinate(box.north))],"
                text += point(latitude: item.latitude, longitude: item.longitude)
                text += ",\"properties\":{\"kind\":\"cluster\",\"count\":\(item.count)\(shares(item)),\"expansionZoom\":\(item.expansionZoom ?? 0)}}"
            case .organization:
                guard let organization = entry.organizations.first else {
                    // Not in the database (it cannot be: the index is stored with the organizations).
                    text += "\"o\(item.id)\"," + point(latitude: item.latitude, longitude: item.longitude)
                        + ",\"properties\":{\"kind\":\"organization\",\"count\":1}}"
                    continue
                }
                text += JSONString.quoted(organization.stableID, for: .javaScript) + ","
                text += point(latitude: organization.coordinates.latitude, longitude: organization.coordinates.longitude)
                text += ",\"properties\":{\"kind\":\"organization\",\"count\":1,"
                appendSummary(of: organization, to: &text)
                text += "}}"
            case .colocatedGroup:
                text += "\"g\(item.id)\"," + point(latitude: item.latitude, longitude: item.longitude)
                text += ",\"properties\":{\"kind\":\"colocated\",\"count\":\(item.count)\(shares(item)),\"organizations\":["
                for (index, organization) in entry.organizations.enumerated() {
                    text += index == 0 ? "{\"id\":" : ",{\"id\":"
                    text += JSONString.quoted(organization.stableID, for: .javaScript) + ","
                    appendSummary(of: organization, to: &text)
                    text += "}"
                }
                text += "]}}"
            }
        }
        text += "\n]}\n"
        return text
    }

    private static func point(latitude: Double, longitude: Double) -> String {
        "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(ExportText.coordinate(longitude)),\(ExportText.coordinate(latitude))]}"
    }

    private static func appendSummary(of organization: MapClusters.Organization, to text: inout String) {
        text += "\"name\":" + JSONString.quoted(organization.name, for: .javaScript)
        text += ",\"nickName\":" + JSONString.quoted(organization.nickName, for: .javaScript)
        text += ",\"type\":\"" + organization.type.rawValue + "\""
        text += ",\"town\":" + JSONString.quoted(organization.town, for: .javaScript)
    }
}
