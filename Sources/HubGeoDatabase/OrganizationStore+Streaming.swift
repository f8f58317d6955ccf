import GRDB
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// Which organizations a streaming read visits: the same selections as the array queries.
public enum OrganizationSelection: Sendable, Equatable {
    /// Every organization.
    case all
    /// Within a geodesic radius of a point (as `near(_:radiusMeters:filter:)`).
    case near(GeoPoint, radiusMeters: Double)
    /// Inside a box (as `within(west:south:east:north:filter:)`); west > east crosses the antimeridian.
    case within(west: Double, south: Double, east: Double, north: Double)
    /// Whose names or town contain the text (as `search(_:filter:)`).
    case search(String)
}

/// The order of a selection's results.
enum SelectionOrder {
    /// Nearest first (`near` only), then by name.
    case distance
    /// By full name, then town.
    case name
    /// By stable id: a deterministic order that needs no sort of whole rows when streaming.
    case stableID
}

extension OrganizationStore {
    /// Calls `body` with each organization that `selection` and `filter` pick, one row at a
    /// time from a database cursor: memory does not grow with the number of organizations.
    /// The order is by stable id, a deterministic order that does not depend on import history;
    /// only ids are sorted (for `near` and `within`), never whole rows. `near` matches carry
    /// their distance. Members are not read.
    public func forEach(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(),
                        body: (PlaceMatch) throws -> Void) throws {
        let (sql, arguments) = try Self.selectionSQL(selection, filter: filter, order: .stableID)
        try database.read { db in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                let organization = try OrganizationRow.organization(from: row, db: db, includeMembers: false)
                try body(try Self.localized(PlaceMatch(organization: organization, distanceMeters: row["match_distance"]),
                                            filter: filter, db: db))
            }
        }
    }

    /// How many organizations `forEach` would visit.
    public func count(_ selection: OrganizationSelection, filter: OrganizationFilter = .init()) throws -> Int {
        let (sql, arguments) = try Self.matchSQL(selection, filter: filter, order: .stableID)
        return try database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: StatementArguments(arguments)) ?? 0
        }
    }

    /// The full rows, in the order of the matching ids. The id subquery has a LIMIT, so SQLite
    /// cannot flatten it into the join, and the CROSS JOIN keeps it the outer loop: only the
    /// matches' small key columns are sorted, or none at all when it walks the stable id index.
    static func selectionSQL(_ selection: OrganizationSelection, filter: OrganizationFilter, order: SelectionOrder) throws
        -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        let (matches, arguments) = try matchSQL(selection, filter: filter, order: order)
        return ("""
            SELECT \(OrganizationRow.columns), m.match_distance
            FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
            """, arguments)
    }

    /// `match_id`, `match_key` (stable id or name) and `match_distance` (near only) of the
    /// matches, in `order`, paged by `filter`.
    static func matchSQL(_ selection: OrganizationSelection, filter: OrganizationFilter, order: SelectionOrder) throws
        -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        var sql: String
        var arguments: [(any DatabaseValueConvertible)?] = []
        let key = order == .stableID ? "o.stable_id" : "o.full_name || char(31) || o.town"
        // `+o.type` keeps SQLite from using the type index, so that it can walk the stable id
        // index in order instead of sorting.
        func appendType() {
            if let type = filter.type {
                sql += " AND +o.type = ?"
                arguments.append(type.rawValue)
            }
        }
        switch selection {
        case .all:
            sql = "SELECT o.id AS match_id, \(key) AS match_key, NULL AS match_distance FROM organization o WHERE 1"
            appendType()
        case .search(let text):
            sql = """
                SELECT o.id AS match_id, \(key) AS match_key, NULL AS match_distance
                FROM organization o WHERE instr(o.search_key, ?) > 0
                """
            arguments.append(text.searchFolded)
            appendType()
        case .within(let west, let south, let east, let north):
            let boxes = try SearchBoxes.splitting(west: west, south: south, east: east, north: north)
            let candidates = candidateSQL(boxes: boxes)
            sql = """
                SELECT o.id AS match_id, \(key) AS match_key, NULL AS match_distance
                FROM organization o WHERE o.id IN (\(candidates.sql))
                """
            arguments += candidates.arguments
            // The index holds float32 boxes: confirm against the exact coordinates.
            let exact = boxes.map { _ in "(o.longitude BETWEEN ? AND ? AND o.latitude BETWEEN ? AND ?)" }
            sql += " AND (\(exact.joined(separator: " OR ")))"
            for box in boxes {
                arguments += [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude]
            }
            appendType()
        case .near(let center, let radiusMeters):
            let candidates = candidateSQL(boxes: SearchBoxes.covering(center: center, radiusMeters: radiusMeters))
            sql = """
                SELECT match_id, match_key, match_distance FROM (
                    SELECT o.id AS match_id, \(key) AS match_key,
                           \(GeodesicFunction.name)(?, ?, o.latitude, o.longitude) AS match_distance
                    FROM organization o WHERE o.id IN (\(candidates.sql))
                """
            arguments += [center.latitude, center.longitude] + candidates.arguments
            appendType()
            // LIMIT -1 keeps SQLite from flattening the subquery, which would compute each
            // distance again for the WHERE and the ORDER BY.
            sql += " LIMIT -1) WHERE match_distance <= ?"
            arguments.append(radiusMeters)
        }
        sql += order == .distance ? " ORDER BY match_distance, match_key" : " ORDER BY match_key"
        sql += " LIMIT ? OFFSET ?"
        arguments += [filter.limit ?? -1, filter.offset]
        return (sql, arguments)
    }
}
