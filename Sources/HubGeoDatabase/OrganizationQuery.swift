import GRDB
import HubGeoModel

/// The one query type of the store: which organizations (``OrganizationSelection``), filtered
/// and paged (``OrganizationFilter``), in which order (``ResultOrder``). Every read of
/// organizations builds its SQL here and decodes its rows with ``OrganizationRow``.
struct OrganizationQuery {
    /// What the query picks: a selection, or one row by its id (a lookup that found it).
    enum Picks {
        case selection(OrganizationSelection)
        case row(Int64)
    }

    var picks: Picks
    var filter: OrganizationFilter
    var order: ResultOrder
    /// Matches in the order the table stores them (row id), not in `order`: for a reader that puts
    /// them in order itself (HubGeoExport's `StableIDOrdering`). Paging (`filter.limit`, `filter.offset`) then
    /// counts in storage order too, so such a reader asks for none.
    var inStorageOrder = false

    init(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder) {
        self.init(.selection(selection), filter: filter, order: order)
    }

    init(_ picks: Picks, filter: OrganizationFilter = .init(), order: ResultOrder) {
        self.picks = picks
        self.filter = filter
        self.order = order
    }

    /// The rows, in the order of the matching ids: ``OrganizationRow/columns(level1Documents:)``, then
    /// `match_distance` and, with `localization`, the localized columns (``localizedColumns``).
    /// `level1Documents`: the database has table `source_document` (``SourceDocuments``).
    /// The id subquery has a LIMIT, so SQLite cannot flatten it into the join, and the CROSS JOIN
    /// keeps it the outer loop: only the matches' small key columns are sorted, or none at all when
    /// it walks the stable id index.
    func rowsSQL(localization: LocalizationSource?, level1Documents: Bool) throws -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        var (matches, arguments) = try matchSQL()
        var sql = "SELECT \(OrganizationRow.columns(level1Documents: level1Documents)), m.match_distance"
        if let localization {
            sql += ", " + Self.localizedColumns
            arguments += Self.localizedJoinArguments(localization)
        }
        sql += "\nFROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id"
        if localization != nil { sql += "\n" + Self.localizedJoin }
        return (sql, arguments)
    }

    /// The localized town (NULL when the answer had none), country, and whether an answer is
    /// cached, from ``localizedJoin``.
    static let localizedColumns = "g.town, g.country, g.rowid IS NOT NULL"

    /// Joins `g`, the answer cached for the point of `o` in one language from one endpoint at one
    /// zoom (``localizedJoinArguments(_:)``), joined after `o`: at most one row, by the cache's primary key.
    static let localizedJoin = """
        LEFT JOIN geocode_cache g
            ON g.latitude_e6 = CAST(round(o.latitude * 1000000) AS INTEGER)
           AND g.longitude_e6 = CAST(round(o.longitude * 1000000) AS INTEGER)
           AND g.language = ? AND g.endpoint = ? AND g.zoom = ?
        """

    /// The arguments of ``localizedJoin``.
    static func localizedJoinArguments(_ source: LocalizationSource) -> [(any DatabaseValueConvertible)?] {
        [source.language, source.endpoint, source.zoom]
    }

    /// `match_id`, `match_key` (stable id or name) and `match_distance` (near only) of the
    /// matches, in `order`, paged by `filter`.
    func matchSQL() throws -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
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
        let selection: OrganizationSelection
        switch picks {
        case .selection(let picked):
            selection = picked
        case .row(let id):
            sql = "SELECT o.id AS match_id, \(key) AS match_key, NULL AS match_distance FROM organization o WHERE o.id = ?"
            arguments.append(id)
            appendType()
            return (sql + " LIMIT ? OFFSET ?", arguments + [filter.limit ?? -1, filter.offset])
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
            let candidates = Self.candidateSQL(boxes: boxes)
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
            let candidates = Self.candidateSQL(boxes: SearchBoxes.covering(center: center, radiusMeters: radiusMeters))
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
        sql += inStorageOrder ? " ORDER BY match_id" : order == .distance ? " ORDER BY match_distance, match_key" : " ORDER BY match_key"
        sql += " LIMIT ? OFFSET ?"
        arguments += [filter.limit ?? -1, filter.offset]
        return (sql, arguments)
    }

    /// A subquery of the ids whose index box meets any of `boxes`.
    private static func candidateSQL(boxes: [LonLatBox]) -> (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        let parts = boxes.map { _ in
            "SELECT pkid FROM idx_organization_geom WHERE xmax >= ? AND xmin <= ? AND ymax >= ? AND ymin <= ?"
        }
        var arguments: [(any DatabaseValueConvertible)?] = []
        for box in boxes {
            arguments += [box.minLongitude, box.maxLongitude, box.minLatitude, box.maxLatitude]
        }
        return (parts.isEmpty ? "SELECT NULL WHERE 0" : parts.joined(separator: " UNION ALL "), arguments)
    }
}
