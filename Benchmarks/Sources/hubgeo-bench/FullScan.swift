import Foundation
import GRDB
import GRDBSQLite
import HubGeo

/// Reference answers by a full scan of the table, without the spatial index: the baseline that
/// `make bench` measures the indexed queries against, and a check of their results. The near
/// scan is the fastest one can write over the table: one `SELECT id, latitude, longitude`, a
/// conservative haversine test in Swift, and the exact distance for the survivors only.
/// The file opened read-only for the scans, apart from the store.
struct FullScan {
    let database: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        database = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The stable ids of the organizations within `radiusMeters` (ellipsoidal distance) of `center`.
    func scanNear(_ center: GeoPoint, radiusMeters: Double) throws -> [String] {
        // A geodesic is never shorter than the smallest radius of curvature times the angle
        // between its ends seen from the centre of a sphere (see SearchBoxes): a point farther
        // than that angle cannot be within the radius.
        let radius = radiusMeters * (1 + SearchBoxes.relativeMargin) + SearchBoxes.absoluteMarginMeters
        let angle = min(.pi, radius / WGS84.smallestRadiusOfCurvature)
        let limit = sin(angle / 2) * sin(angle / 2)
        let latitude0 = center.latitude * .pi / 180
        let longitude0 = center.longitude * .pi / 180
        let cosLatitude0 = cos(latitude0)
        return try database.read { db in
            let statement = try db.makeStatement(sql: "SELECT id, latitude, longitude FROM organization")
            let handle = statement.sqliteStatement
            var found: [Int64] = []
            while true {
                let status = sqlite3_step(handle)
                if status == SQLITE_DONE { break }
                guard status == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                let latitude = sqlite3_column_double(handle, 1)
                let longitude = sqlite3_column_double(handle, 2)
                let phi = latitude * .pi / 180
                let halfLatitude = sin((phi - latitude0) / 2)
                let halfLongitude = sin((longitude * .pi / 180 - longitude0) / 2)
                let haversine = halfLatitude * halfLatitude + cosLatitude0 * cos(phi) * halfLongitude * halfLongitude
                guard haversine <= limit else { continue }
                if Geodesic.distance(latitude1: center.latitude, longitude1: center.longitude,
                                     latitude2: latitude, longitude2: longitude) <= radiusMeters {
                    found.append(sqlite3_column_int64(handle, 0))
                }
            }
            return try String.fetchAll(db, sql: "SELECT stable_id FROM organization WHERE id IN (SELECT value FROM json_each(?)) ORDER BY stable_id",
                                       arguments: ["[" + found.map(String.init).joined(separator: ",") + "]"])
        }
    }

    /// The stable ids of the organizations inside a box; `west > east` crosses the antimeridian.
    func scanWithin(west: Double, south: Double, east: Double, north: Double) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: """
                SELECT stable_id FROM organization NOT INDEXED
                WHERE latitude BETWEEN ? AND ?
                  AND (CASE WHEN ? <= ? THEN longitude BETWEEN ? AND ? ELSE longitude >= ? OR longitude <= ? END)
                ORDER BY stable_id
                """, arguments: [south, north, west, east, west, east, west, east])
        }
    }
}
