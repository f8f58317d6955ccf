import GRDB
import GRDBSQLite
import HubGeoModel


/// `hubgeo_geodesic_distance(lat1, lon1, lat2, lon2)`: the WGS84 geodesic distance in metres
/// (``Geodesic``), as an SQL function of every connection, so that queries need no extension.
/// NULL when an argument is NULL.
///
/// Registered with raw SQLite, not GRDB's `DatabaseFunction`: GRDB cannot flag a function
/// `SQLITE_INNOCUOUS` (it sets `SQLITE_DETERMINISTIC` only), and its functions receive their
/// arguments as an array of `DatabaseValue`, made for every call, where a `near` computes a distance
/// for every candidate row. (Not measured against GRDB's form.)
enum GeodesicFunction {
    static let name = "hubgeo_geodesic_distance"

    static func register(in db: Database) {
        guard let connection = db.sqliteConnection else { return }
        sqlite3_create_function_v2(
            connection, name, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, count, values in
                guard count == 4, let values else { return sqlite3_result_null(context) }
                for index in 0..<4 where sqlite3_value_type(values[index]) == SQLITE_NULL {
                    return sqlite3_result_null(context)
                }
                sqlite3_result_double(context, Geodesic.distance(
                    latitude1: sqlite3_value_double(values[0]), longitude1: sqlite3_value_double(values[1]),
                    latitude2: sqlite3_value_double(values[2]), longitude2: sqlite3_value_double(values[3])))
            }, nil, nil, nil)
    }
}
