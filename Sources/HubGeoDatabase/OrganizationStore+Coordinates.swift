import GRDB
import HubGeoModel


extension OrganizationReading where Self: ~Copyable {
    /// The distinct (rounded) coordinates of the organizations, with how many organizations share each.
    package func distinctCoordinates(type: OrganizationType? = nil) throws -> [(coordinate: GeocodeCoordinate, organizations: Int)] {
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM organization WHERE ?1 IS NULL OR type = ?1",
                             arguments: [type?.rawValue]).map { row in
                let checked = CheckedRow(row, place: "organization row \(row[0] as Int64)")
                return GeoPoint(latitude: try checked.number(1, "latitude", in: -90...90),
                                longitude: try checked.number(2, "longitude", in: -180...180))
            }
        }
        var counts: [GeocodeCoordinate: Int] = [:]
        for point in rows {
            counts[GeocodeCoordinate(point), default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
