import GRDB
import HubGeoModel

/// The counts and extent of the organizations an import left in the database, kept in its
/// `import_run` row (columns `clubs`, `museums`, `clubs_with_level2`, `south`, `west`, `north`,
/// `east`: migration "v5 import statistics"), so that ``OrganizationReading/statistics()`` reads one
/// row instead of scanning the organizations (75 ms at 200,000, more than `serve --timeout 0.05`).
///
/// The import sums them while the organizations stream through its sync: every organization it
/// keeps, writes or rewrites is one of the data's (an unchanged one holds the data's values, which
/// is why it is not written), and every other row is removed, all in the run's transaction. So the
/// numbers are those of the rows, whatever the import did: a first import, changes, removals,
/// damaged rows rewritten, nothing at all.
///
/// A run recorded before the columns existed (a database made by an older hubgeo, opened
/// read-only since) has NULL there: ``OrganizationReading/statistics()`` then scans, as it did.
struct ImportStatistics: Equatable {
    var clubs = 0
    var museums = 0
    /// Organizations with a Level 2 file (only clubs have one).
    var clubsWithLevel2 = 0
    /// The extent's edges: infinite (south > north) while there are no organizations.
    private var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity

    /// The south-west and north-east corners; nil when there are no organizations.
    var southWest: GeoPoint? {
        get { south <= north ? GeoPoint(latitude: south, longitude: west) : nil }
        set { (south, west) = newValue.map { ($0.latitude, $0.longitude) } ?? (.infinity, .infinity) }
    }

    var northEast: GeoPoint? {
        get { south <= north ? GeoPoint(latitude: north, longitude: east) : nil }
        set { (north, east) = newValue.map { ($0.latitude, $0.longitude) } ?? (-.infinity, -.infinity) }
    }

    /// Counts `organization` in (for every organization of an import: a few comparisons).
    mutating func add(_ organization: Organization) {
        if organization.type == .club { clubs += 1 } else { museums += 1 }
        if organization.hasLevel2 { clubsWithLevel2 += 1 }
        let latitude = organization.coordinates.latitude, longitude = organization.coordinates.longitude
        if latitude < south { south = latitude }
        if latitude > north { north = latitude }
        if longitude < west { west = longitude }
        if longitude > east { east = longitude }
    }

    // MARK: - In the database

    /// The columns of `import_run` that hold them, in the order every statement here uses.
    static let columns = ["clubs", "museums", "clubs_with_level2", "south", "west", "north", "east"]

    /// Adds the columns to `import_run` (a migration of ``DatabaseSchema``); earlier runs keep NULL there.
    static func addColumns(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE import_run ADD COLUMN clubs INTEGER CHECK (clubs >= 0);
            ALTER TABLE import_run ADD COLUMN museums INTEGER CHECK (museums >= 0);
            ALTER TABLE import_run ADD COLUMN clubs_with_level2 INTEGER CHECK (clubs_with_level2 >= 0);
            ALTER TABLE import_run ADD COLUMN south REAL CHECK (south BETWEEN -90 AND 90);
            ALTER TABLE import_run ADD COLUMN west REAL CHECK (west BETWEEN -180 AND 180);
            ALTER TABLE import_run ADD COLUMN north REAL CHECK (north BETWEEN -90 AND 90);
            ALTER TABLE import_run ADD COLUMN east REAL CHECK (east BETWEEN -180 AND 180);
            """)
    }

    /// True when `import_run` has the columns; a database made by an older hubgeo, opened
    /// read-only, does not (GRDB keeps the schema per connection: no query per call).
    static func stored(in db: Database) throws -> Bool {
        try db.columns(in: "import_run").contains { $0.name == "clubs" }
    }

    /// The values to bind after the other columns of the run's `INSERT`.
    var arguments: StatementArguments {
        let extent = south <= north
        return [clubs, museums, clubsWithLevel2, extent ? south : nil, extent ? west : nil, extent ? north : nil, extent ? east : nil]
    }

    /// Those read from `row`'s ``columns`` from `index` on; nil when the run has none (recorded
    /// before they existed). Throws ``DamagedData`` for values that are not what an import writes:
    /// a count that is no integer or negative, a corner out of range or only in part, numbers
    /// that do not hold together.
    init?(_ row: CheckedRow, from index: Int) throws {
        guard let clubs = try row.optionalInteger(index, "clubs") else { return nil }
        func count(_ offset: Int) throws -> Int {
            let name = Self.columns[offset]
            guard let value = try row.optionalInteger(index + offset, name), value >= 0 else {
                throw DamagedData(description: "\(row.place()): \(name) holds \(CheckedRow.describe(row.row[index + offset] as DatabaseValue)), not a count")
            }
            return value
        }
        self.clubs = try count(0)
        museums = try count(1)
        clubsWithLevel2 = try count(2)
        let corners = try [(3, -90.0...90.0), (4, -180...180), (5, -90...90), (6, -180...180)].map { offset, range in
            try row.optionalNumber(index + offset, Self.columns[offset], in: range)
        }
        let organizations = clubs + museums
        if let south = corners[0], let west = corners[1], let north = corners[2], let east = corners[3] {
            southWest = GeoPoint(latitude: south, longitude: west)
            northEast = GeoPoint(latitude: north, longitude: east)
            guard south <= north, west <= east, organizations > 0 else {
                throw DamagedData(description: "\(row.place()): the extent south \(south), west \(west), north \(north), east \(east) "
                                  + "is not that of \(organizations) organizations")
            }
        } else if corners.contains(where: { $0 != nil }) || organizations > 0 {
            throw DamagedData(description: "\(row.place()): the extent (south, west, north, east) is missing in part or whole, "
                              + "for \(organizations) organizations")
        }
        guard clubsWithLevel2 <= organizations else {
            throw DamagedData(description: "\(row.place()): clubs_with_level2 holds \(clubsWithLevel2), more than its \(organizations) organizations")
        }
    }

    init() {}

    /// What the last run recorded is damaged: its description, for an import to say that it
    /// recorded them anew; nil when they read (or there are none, or no run).
    static func damageInLastRun(_ db: Database) throws -> String? {
        guard try stored(in: db) else { return nil }
        guard let row = try Row.fetchOne(db, sql: "SELECT id, \(columns.joined(separator: ", ")) FROM import_run ORDER BY id DESC LIMIT 1")
        else { return nil }
        do {
            _ = try ImportStatistics(CheckedRow(row, place: "import_run row \(row[0] as Int64)"), from: 1)
            return nil
        } catch let damage as DamagedData {
            return damage.description
        }
    }

    /// Counts the rows of table organization: for a database whose last run recorded none.
    /// min() and max() of a column that holds text or a blob in some row return it, which the
    /// checks refuse (naming the table).
    static func scan(_ db: Database) throws -> ImportStatistics {
        var statistics = ImportStatistics()
        guard let row = try Row.fetchOne(db, sql: """
            SELECT sum(type = 'club') AS clubs, sum(type = 'museum') AS museums, sum(has_level2) AS level2,
                   min(latitude) AS south, min(longitude) AS west, max(latitude) AS north, max(longitude) AS east
            FROM organization
            """) else { return statistics }
        let extent = CheckedRow(row, place: "table organization")
        statistics.clubs = try extent.optionalInteger(0, "clubs") ?? 0
        statistics.museums = try extent.optionalInteger(1, "museums") ?? 0
        statistics.clubsWithLevel2 = try extent.optionalInteger(2, "has_level2") ?? 0
        if let south = try extent.optionalNumber(3, "latitude", in: -90...90),
           let west = try extent.optionalNumber(4, "longitude", in: -180...180),
           let north = try extent.optionalNumber(5, "latitude", in: -90...90),
           let east = try extent.optionalNumber(6, "longitude", in: -180...180) {
            statistics.southWest = GeoPoint(latitude: south, longitude: west)
            statistics.northEast = GeoPoint(latitude: north, longitude: east)
        }
        return statistics
    }
}
