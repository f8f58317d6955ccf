import GRDB
import HubGeoModel

/// Data in a hubgeo database that is not what hubgeo wrote there (another program, `PRAGMA
/// ignore_check_constraints`, a disk): a value of the wrong type, a NULL, a number out of range,
/// a cluster index that does not check. The store turns it into ``StoreError/damaged(path:reason:)``,
/// which names the file (``StoreDatabase``); nothing that reads a row traps on one (a NULL town
/// or a latitude of 1e9 stopped `near`, `export` and `serve` with "Swift runtime failure", exit 132).
struct DamagedData: Error, CustomStringConvertible {
    /// What is wrong, where: "organization row 12: town is NULL".
    var description: String
}

/// The checked reads of one row's values: each throws ``DamagedData`` naming the table, the row
/// and the column when the value is not of the type and range hubgeo writes. The kinds are those
/// of ``OrganizationRow/Column/kind`` and of the other tables' columns.
struct CheckedRow {
    let row: Row
    /// Where the row is ("organization row 12"), for the message; made only for one.
    let place: () -> String

    init(_ row: Row, place: @autoclosure @escaping () -> String) {
        self.row = row
        self.place = place
    }

    private func damaged(_ column: String, _ value: DatabaseValue, expected: String) -> DamagedData {
        DamagedData(description: "\(place()): \(column) holds \(Self.describe(value)), not \(expected)")
    }

    /// "a number in -90...90".
    static func expected(_ range: ClosedRange<Double>) -> String {
        "a number in \(Int(range.lowerBound))...\(Int(range.upperBound))"
    }

    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let number): "the integer \(number)"
        case .double(let number): "the number \(number)"
        case .string: "text"
        case .blob(let data): "a blob of \(data.count) bytes"
        }
    }

    func text(_ index: Int, _ column: String) throws -> String {
        let value: DatabaseValue = row[index]
        guard case .string(let text) = value.storage else { throw damaged(column, value, expected: "text") }
        return text
    }

    /// The text, or "" for anything else: to name a damaged row that is being removed.
    func textOrEmpty(_ index: Int) -> String {
        if case .string(let text) = (row[index] as DatabaseValue).storage { return text }
        return ""
    }

    func optionalText(_ index: Int, _ column: String) throws -> String? {
        let value: DatabaseValue = row[index]
        switch value.storage {
        case .null: return nil
        case .string(let text): return text
        default: throw damaged(column, value, expected: "text or NULL")
        }
    }

    /// A REAL column (an integral value may be stored as an integer) within `range`, which
    /// excludes NaN and the infinities.
    func number(_ index: Int, _ column: String, in range: ClosedRange<Double>) throws -> Double {
        let value: DatabaseValue = row[index]
        let number: Double
        switch value.storage {
        case .double(let double): number = double
        case .int64(let integer): number = Double(integer)
        default: throw damaged(column, value, expected: Self.expected(range))
        }
        guard range.contains(number) else { throw damaged(column, value, expected: Self.expected(range)) }
        return number
    }

    func optionalNumber(_ index: Int, _ column: String, in range: ClosedRange<Double>) throws -> Double? {
        let value: DatabaseValue = row[index]
        if value.isNull { return nil }
        return try number(index, column, in: range)
    }

    func integer(_ index: Int, _ column: String) throws -> Int64 {
        let value: DatabaseValue = row[index]
        guard case .int64(let integer) = value.storage else { throw damaged(column, value, expected: "an integer") }
        return integer
    }

    func optionalInteger(_ index: Int, _ column: String) throws -> Int? {
        let value: DatabaseValue = row[index]
        switch value.storage {
        case .null: return nil
        case .int64(let integer): return Int(integer)
        default: throw damaged(column, value, expected: "an integer or NULL")
        }
    }

    /// An organization's type: "club" or "museum".
    func type(_ index: Int) throws -> OrganizationType {
        let name = try text(index, "type")
        guard let type = OrganizationType(rawValue: name) else {
            throw DamagedData(description: "\(place()): type holds '\(TerminalSafe.escaped(name))', not \(OrganizationRow.Kind.type.expected)")
        }
        return type
    }

    func boolean(_ index: Int, _ column: String) throws -> Bool {
        try integer(index, column) != 0
    }
}
