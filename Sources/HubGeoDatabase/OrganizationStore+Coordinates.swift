import GRDB
import HubGeoModel
import HubGeoReader

extension OrganizationStore {
    /// The distinct (rounded) coordinates of the organizations, with how many organizations share each.
    package func distinctCoordinates(type: OrganizationType? = nil) throws -> [(coordinate: GeocodeCoordinate, organizations: Int)] {
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT latitude, longitude FROM organization WHERE ?1 IS NULL OR type = ?1",
                             arguments: [type?.rawValue])
        }
        var counts: [GeocodeCoordinate: Int] = [:]
        for row in rows {
            counts[GeocodeCoordinate(GeoPoint(latitude: row["latitude"], longitude: row["longitude"])), default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
