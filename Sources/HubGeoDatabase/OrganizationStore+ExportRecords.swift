import GRDB
import GRDBSQLite
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// The order of streamed results.
public enum ResultOrder: Sendable {
    /// By stable id: what `hubgeo export` writes (deterministic, needs no sort of whole rows).
    case stableID
    /// Nearest first, then by name (selections with a centre only).
    case distance
    /// By full name, then town.
    case name

    var selectionOrder: SelectionOrder {
        switch self {
        case .stableID: .stableID
        case .distance: .distance
        case .name: .name
        }
    }
}

extension OrganizationStore {
    /// As ``forEach(_:filter:body:)``, in `order`: the organizations come in chunks with their
    /// remarks and overrides read by one statement per chunk (see ``forEachChunk``).
    public func forEach(_ selection: OrganizationSelection, filter: OrganizationFilter = .init(), order: ResultOrder,
                        body: (PlaceMatch) throws -> Void) throws {
        try forEachChunk(selection, filter: filter, order: order) { chunk in
            for match in chunk { try body(match) }
        }
    }

    /// As ``forEach(_:filter:order:body:)``, for the exports' byte path: the organizations that
    /// `selection` and `filter` pick, in `order`, as ``ExportRecord``s, each with the remark in
    /// `remarkLanguage` (else that of its localized place, else English, else the first) and,
    /// with `filter.localization`, its cached localized place. The rows, their remarks and their
    /// places come from one statement, one pass; the record is reused, so `body` must not keep
    /// it. Returns how many.
    package func forEachExportRecord(_ selection: OrganizationSelection, filter: OrganizationFilter, order: ResultOrder,
                             remarkLanguage: String?, body: (ExportRecord) throws -> Void) throws -> Int {
        let order = order.selectionOrder
        let (matches, matchArguments) = try Self.matchSQL(selection, filter: filter, order: order)
        var arguments = matchArguments
        let localizedColumns: String
        let localizedJoin: String
        if let source = filter.localization, try hasGeocodeCache() {
            // The answer cached for the point in the language, from the endpoint at the zoom.
            localizedColumns = "g.town, g.country, g.rowid IS NOT NULL"
            localizedJoin = Self.localizedJoin
            arguments += Self.localizedJoinArguments(source)
        } else {
            localizedColumns = "NULL, NULL, 0"
            localizedJoin = ""
        }
        // The CROSS JOIN keeps the matches the outer loop, in their order; each organization's
        // remarks follow it, by language (the primary key's order).
        let sql = """
            SELECT o.id, o.stable_id, o.type, o.town, o.full_name, o.nick_name, o.latitude, o.longitude,
                   o.website, o.wikipedia, o.fotobond_number, o.member_count, r.language, r.value, \(localizedColumns)
            FROM (\(matches)) AS m CROSS JOIN organization o ON o.id = m.match_id
            LEFT JOIN organization_remark r ON r.organization_id = o.id
            \(localizedJoin)
            """
        return try database.read { db in
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments))
            let handle = statement.sqliteStatement
            var reader = ExportRowReader(remarkLanguage: remarkLanguage, queryLanguage: filter.language)
            var count = 0
            while true {
                let status = sqlite3_step(handle)
                if status == SQLITE_DONE { break }
                guard status == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                        sql: sql)
                }
                if reader.read(handle) {
                    try body(reader.record)
                    count += 1
                    reader.start(handle)
                }
            }
            if reader.finish() {
                try body(reader.record)
                count += 1
            }
            return count
        }
    }
}

/// Turns the export statement's rows (one per organization and remark) into records: an
/// organization is complete when the next one starts.
struct ExportRowReader {
    private(set) var record = ExportRecord()
    private var currentID: Int64?
    /// The writer's remark language, and the query's (which the localized place carries).
    private let remarkLanguage: [UInt8]?
    private let queryLanguage: [UInt8]?
    /// The remark language preferred for the current organization: the writer's, else that of
    /// its localized place.
    private var preferredLanguage: [UInt8]?
    /// The remark candidates: in the preferred language, in English, the first.
    private var preferredRemark = RemarkCandidate()
    private var englishRemark = RemarkCandidate()
    private var firstRemark = RemarkCandidate()

    struct RemarkCandidate {
        var isSet = false
        var language: [UInt8] = []
        var value: [UInt8] = []

        mutating func take(_ language: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
            isSet = true
            self.language.removeAll(keepingCapacity: true)
            self.language.append(contentsOf: language)
            self.value.removeAll(keepingCapacity: true)
            self.value.append(contentsOf: value)
        }
    }

    init(remarkLanguage: String?, queryLanguage: String?) {
        self.remarkLanguage = remarkLanguage.map { Array($0.utf8) }
        self.queryLanguage = queryLanguage.map { Array($0.utf8) }
    }

    /// Takes one row. Returns true when it starts a new organization and the previous one's
    /// record is complete: write `record`, then call ``start(_:)`` with the same row.
    mutating func read(_ statement: SQLiteStatement) -> Bool {
        let id = sqlite3_column_int64(statement, 0)
        if let currentID, currentID != id {
            complete()
            return true
        }
        if currentID == nil { start(statement) } else { addRemark(statement) }
        return false
    }

    /// Begins the organization of the current row.
    mutating func start(_ statement: SQLiteStatement) {
        currentID = sqlite3_column_int64(statement, 0)
        record.reset()
        preferredRemark.isSet = false
        englishRemark.isSet = false
        firstRemark.isSet = false
        record.set(.id, Self.text(statement, 1))
        let type = Self.text(statement, 2)
        record.organizationType = type.first == UInt8(ascii: "m") ? .museum : .club
        record.set(.name, Self.text(statement, 4))
        record.set(.nickName, Self.text(statement, 5))
        record.set(.type, type)
        record.set(.town, Self.text(statement, 3))
        record.latitude = sqlite3_column_double(statement, 6)
        record.longitude = sqlite3_column_double(statement, 7)
        preferredLanguage = remarkLanguage
        if sqlite3_column_int(statement, 16) != 0 {
            // The answer's town, else the Level 1 town (see `LocalizedPlace.shown`).
            let answeredTown = Self.text(statement, 14)
            if answeredTown.isEmpty {
                record.set(.localizedTown, Self.text(statement, 3))
                Self.level1.withUnsafeBufferPointer { record.set(.localizedTownSource, $0) }
            } else {
                record.set(.localizedTown, answeredTown)
                Self.nominatim.withUnsafeBufferPointer { record.set(.localizedTownSource, $0) }
            }
            record.set(.localizedCountry, Self.text(statement, 15))
            if let queryLanguage {
                queryLanguage.withUnsafeBufferPointer { record.set(.language, $0) }
                if preferredLanguage == nil { preferredLanguage = queryLanguage }
            }
        }
        record.set(.website, Self.text(statement, 8))
        record.set(.wikipedia, Self.text(statement, 9))
        record.fotobondNumber = sqlite3_column_type(statement, 10) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, 10))
        record.memberCount = record.organizationType == .club && sqlite3_column_type(statement, 11) != SQLITE_NULL
            ? Int(sqlite3_column_int64(statement, 11)) : nil
        addRemark(statement)
    }

    /// Completes the last organization; false when there was none.
    mutating func finish() -> Bool {
        guard currentID != nil else { return false }
        complete()
        return true
    }

    private mutating func addRemark(_ statement: SQLiteStatement) {
        guard sqlite3_column_type(statement, 12) != SQLITE_NULL else { return }
        let language = Self.text(statement, 12)
        let value = Self.text(statement, 13)
        if let preferredLanguage, !preferredRemark.isSet, Self.equalIgnoringASCIICase(language, preferredLanguage) {
            preferredRemark.take(language, value)
        }
        if !englishRemark.isSet, Self.equalIgnoringASCIICase(language, Self.english) {
            englishRemark.take(language, value)
        }
        if !firstRemark.isSet {
            firstRemark.take(language, value)
        }
    }

    private mutating func complete() {
        let chosen = preferredRemark.isSet ? preferredRemark : englishRemark.isSet ? englishRemark : firstRemark
        guard chosen.isSet else { return }
        chosen.value.withUnsafeBufferPointer { record.set(.remark, $0) }
        chosen.language.withUnsafeBufferPointer { record.set(.remarkLanguage, $0) }
    }

    private static let english: [UInt8] = Array("en".utf8)
    /// ``LocalizedPlace/TownSource`` raw values.
    private static let nominatim: [UInt8] = Array(LocalizedPlace.TownSource.nominatim.rawValue.utf8)
    private static let level1: [UInt8] = Array(LocalizedPlace.TownSource.level1.rawValue.utf8)

    private static func equalIgnoringASCIICase<C: Collection<UInt8>>(_ a: UnsafeBufferPointer<UInt8>, _ b: C) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            let lowerX = x >= 0x41 && x <= 0x5A ? x + 32 : x
            let lowerY = y >= 0x41 && y <= 0x5A ? y + 32 : y
            if lowerX != lowerY { return false }
        }
        return true
    }

    @inline(__always)
    static func text(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = sqlite3_column_text(statement, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }
}

extension SelectionOrder {
    var resultOrder: ResultOrder {
        switch self {
        case .stableID: .stableID
        case .distance: .distance
        case .name: .name
        }
    }
}
