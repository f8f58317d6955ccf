import GRDB
import GRDBSQLite
import HubGeoModel

/// Turns the export statement's rows (one per organization and remark) into records: an
/// organization is complete when the next one starts. A row holds
/// ``OrganizationRow/exportColumns`` at their ``OrganizationRow/Column`` positions, then the
/// remark's language and value, then ``OrganizationQuery/localizedColumns``.
///
/// Raw SQLite (`sqlite3_column_*`), not GRDB's `Row`: the export's byte path copies each column's
/// UTF-8 from SQLite's own buffer straight into the record's arena, with no value made per column,
/// where a `Row` reads text as a `String` (an allocation per text column of every row and remark),
/// or through `withUnsafeData` as a `Data` per column. Commit 1cfa254 made this path ("no String
/// per feature") together with the writers' byte buffer; the two were not measured apart.
struct ExportRowReader {
    private typealias Column = OrganizationRow.Column
    private static let remarkLanguage = OrganizationRow.nextExportColumn
    private static let remarkValue = remarkLanguage + 1
    private static let localizedTown = remarkLanguage + 2
    private static let localizedCountry = remarkLanguage + 3
    private static let isLocalized = remarkLanguage + 4

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
    /// record is complete: write `record`, then call ``start(_:)`` with the same row. Throws
    /// ``DamagedData`` for a value that is not what hubgeo writes (``OrganizationRow/Kind``).
    mutating func read(_ statement: SQLiteStatement) throws -> Bool {
        let id = sqlite3_column_int64(statement, Column.id.rawValue)
        if let currentID, currentID != id {
            complete()
            return true
        }
        if currentID == nil { try start(statement) } else { try addRemark(statement) }
        return false
    }

    /// The columns the record is made of, checked before they are read.
    private static let checkedColumns = Column.allCases.filter { $0.rawValue <= Column.memberCount.rawValue }

    /// Begins the organization of the current row.
    mutating func start(_ statement: SQLiteStatement) throws {
        for column in Self.checkedColumns { try OrganizationRow.Kind.check(statement, column) }
        currentID = sqlite3_column_int64(statement, Column.id.rawValue)
        record.reset()
        preferredRemark.isSet = false
        englishRemark.isSet = false
        firstRemark.isSet = false
        record.set(.id, Self.text(statement, Column.stableID.rawValue))
        let type = Self.text(statement, Column.type.rawValue)
        record.organizationType = type.first == UInt8(ascii: "m") ? .museum : .club
        record.set(.name, Self.text(statement, Column.fullName.rawValue))
        record.set(.nickName, Self.text(statement, Column.nickName.rawValue))
        record.set(.type, type)
        record.set(.town, Self.text(statement, Column.town.rawValue))
        record.latitude = sqlite3_column_double(statement, Column.latitude.rawValue)
        record.longitude = sqlite3_column_double(statement, Column.longitude.rawValue)
        preferredLanguage = remarkLanguage
        if sqlite3_column_int(statement, Self.isLocalized) != 0 {
            let (town, source) = LocalizedPlace.townShown(answered: Self.text(statement, Self.localizedTown),
                                                           level1: Self.text(statement, Column.town.rawValue))
            record.set(.localizedTown, town)
            (source == .nominatim ? Self.nominatim : Self.level1).withUnsafeBufferPointer { record.set(.localizedTownSource, $0) }
            record.set(.localizedCountry, Self.text(statement, Self.localizedCountry))
            if let queryLanguage {
                queryLanguage.withUnsafeBufferPointer { record.set(.language, $0) }
                if preferredLanguage == nil { preferredLanguage = queryLanguage }
            }
        }
        record.set(.website, Self.text(statement, Column.website.rawValue))
        record.set(.wikipedia, Self.text(statement, Column.wikipedia.rawValue))
        let fotobond = Column.fotobondNumber.rawValue
        record.fotobondNumber = sqlite3_column_type(statement, fotobond) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, fotobond))
        let members = Column.memberCount.rawValue
        record.memberCount = record.organizationType == .club && sqlite3_column_type(statement, members) != SQLITE_NULL
            ? Int(sqlite3_column_int64(statement, members)) : nil
        try addRemark(statement)
    }

    /// Completes the last organization; false when there was none.
    mutating func finish() -> Bool {
        guard currentID != nil else { return false }
        complete()
        return true
    }

    private mutating func addRemark(_ statement: SQLiteStatement) throws {
        guard sqlite3_column_type(statement, Self.remarkLanguage) != SQLITE_NULL else { return }
        guard sqlite3_column_type(statement, Self.remarkLanguage) == SQLITE_TEXT,
              sqlite3_column_type(statement, Self.remarkValue) == SQLITE_TEXT else {
            throw DamagedData(description: "organization_remark of organization row \(sqlite3_column_int64(statement, Column.id.rawValue)): "
                + "language holds \(CheckedRow.describe(DatabaseValue(sqliteStatement: statement, index: Self.remarkLanguage))), "
                + "value \(CheckedRow.describe(DatabaseValue(sqliteStatement: statement, index: Self.remarkValue))), not text")
        }
        let language = Self.text(statement, Self.remarkLanguage)
        let value = Self.text(statement, Self.remarkValue)
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
