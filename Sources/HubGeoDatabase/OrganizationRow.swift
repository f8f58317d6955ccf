import GRDB
import GRDBSQLite
import HubGeoModel

/// The one layout of an `organization` row as the queries select it, and the one decoder of it:
/// every read path selects ``columns`` first and reads them by ``Column`` position, from a GRDB
/// `Row` (``organizationWithoutRelations(from:)``) or, on the export's byte path, straight from
/// the statement (``ExportRowReader``). Remarks, overrides and members are read per chunk of
/// rows (``addRelations(to:ids:includeMembers:db:)``), never with a query per organization.
///
/// `Kind.accepts(_:_:)` checks a column with raw SQLite (`sqlite3_column_type`, `_text`, `_double`)
/// because it serves that byte path, which reads a statement's columns in place and never makes a
/// GRDB `Row` (see ``ExportRowReader``); the other read paths use GRDB.
enum OrganizationRow {
    /// The selected columns, in order: a column's position is its raw value.
    enum Column: Int32, CaseIterable {
        // What an export reads comes first (``exportColumns``).
        case id, stableID, type, town, fullName, nickName, latitude, longitude, website, wikipedia, fotobondNumber, memberCount
        case level2URL, maintainerEmail, hasLevel2, level1Source, level2Source

        var name: String {
            switch self {
            case .id: "id"
            case .stableID: "stable_id"
            case .type: "type"
            case .town: "town"
            case .fullName: "full_name"
            case .nickName: "nick_name"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .website: "website"
            case .wikipedia: "wikipedia"
            case .level2URL: "level2_url"
            case .maintainerEmail: "maintainer_email"
            case .fotobondNumber: "fotobond_number"
            case .hasLevel2: "has_level2"
            case .memberCount: "member_count"
            case .level1Source: "level1_source"
            case .level2Source: "level2_source"
            }
        }

        /// What a query of table `organization` as `o` selects for the column: the column, or for
        /// ``level1Source`` the path of the row's document (``SourceDocuments``), or with
        /// `level1Documents` false (a database not yet migrated, read by a read-only command) the
        /// column `level1_source` of before.
        func expression(level1Documents: Bool = true) -> String {
            self == .level1Source && level1Documents ? SourceDocuments.level1SourceExpression : "o." + name
        }

        /// An SQL condition on a row of table `organization` (unaliased), true when it holds what
        /// hubgeo writes for the column.
        var storedCondition: String {
            self == .level1Source ? SourceDocuments.level1DocumentCondition : kind.sqlCondition(name)
        }

        /// The position in a GRDB `Row`.
        var index: Int { Int(rawValue) }

        /// What hubgeo writes in the column (the table's types and CHECKs, which a damaged
        /// database may not hold to).
        var kind: Kind {
            switch self {
            case .id, .hasLevel2: .integer
            case .stableID, .town, .fullName, .nickName, .level1Source: .text
            case .type: .type
            case .latitude: .latitude
            case .longitude: .longitude
            case .website, .wikipedia, .level2URL, .maintainerEmail, .level2Source: .optionalText
            case .fotobondNumber, .memberCount: .optionalInteger
            }
        }
    }

    /// The kinds of value of the organization's columns. The one statement of what a readable
    /// row holds: the decoders check it (``organizationWithoutRelations(from:)``,
    /// ``ExportRowReader``), and an import finds the rows to rewrite with ``damagedRowsSQL``.
    enum Kind {
        case integer, text, optionalText, optionalInteger
        /// "club" or "museum".
        case type
        /// A number in [-90, 90] or [-180, 180].
        case latitude, longitude

        var range: ClosedRange<Double> { self == .latitude ? -90...90 : -180...180 }

        /// An SQL condition, true when `column` holds what hubgeo writes.
        func sqlCondition(_ column: String) -> String {
            switch self {
            case .integer: "typeof(\(column)) = 'integer'"
            case .text: "typeof(\(column)) = 'text'"
            case .optionalText: "typeof(\(column)) IN ('text', 'null')"
            case .optionalInteger: "typeof(\(column)) IN ('integer', 'null')"
            case .type: "typeof(\(column)) = 'text' AND \(column) IN ('club', 'museum')"
            case .latitude, .longitude:
                "typeof(\(column)) IN ('real', 'integer') AND \(column) BETWEEN \(Int(range.lowerBound)) AND \(Int(range.upperBound))"
            }
        }

        /// True when column `index` of the statement's current row holds what hubgeo writes:
        /// ``sqlCondition(_:)`` on the export's byte path.
        func accepts(_ statement: SQLiteStatement, _ index: Int32) -> Bool {
            let type = sqlite3_column_type(statement, index)
            switch self {
            case .integer: return type == SQLITE_INTEGER
            case .text: return type == SQLITE_TEXT
            case .optionalText: return type == SQLITE_TEXT || type == SQLITE_NULL
            case .optionalInteger: return type == SQLITE_INTEGER || type == SQLITE_NULL
            case .type:
                guard type == SQLITE_TEXT, let text = sqlite3_column_text(statement, index) else { return false }
                let count = Int(sqlite3_column_bytes(statement, index))
                return UnsafeBufferPointer(start: text, count: count).elementsEqual("club".utf8)
                    || UnsafeBufferPointer(start: text, count: count).elementsEqual("museum".utf8)
            case .latitude, .longitude:
                return (type == SQLITE_FLOAT || type == SQLITE_INTEGER) && range.contains(sqlite3_column_double(statement, index))
            }
        }

        /// Throws ``DamagedData`` unless column `column` of the statement's current row (an
        /// organization's, ``OrganizationRow/Column``) holds what hubgeo writes.
        static func check(_ statement: SQLiteStatement, _ column: Column) throws {
            guard !column.kind.accepts(statement, column.rawValue) else { return }
            let value = DatabaseValue(sqliteStatement: statement, index: column.rawValue)
            throw DamagedData(description: "organization row \(sqlite3_column_int64(statement, Column.id.rawValue)): "
                + "\(column.name) holds \(CheckedRow.describe(value)), not \(column.kind.expected)")
        }

        /// What a column of this kind should hold, for a message.
        var expected: String {
            switch self {
            case .integer: "an integer"
            case .text: "text"
            case .optionalText: "text or NULL"
            case .optionalInteger: "an integer or NULL"
            case .type: "'club' or 'museum'"
            case .latitude, .longitude: CheckedRow.expected(range)
            }
        }
    }

    /// The row ids of the organizations an import cannot trust (and so rewrites from its data,
    /// or removes): a column that does not hold what ``Kind`` says, a Level 1 document that is not
    /// one, a search key that is not text or digests that are not integers, or a remark, member or override row of the wrong types. Linear scans
    /// in SQLite, no row decoded in Swift.
    static let damagedRowsSQL: String = {
        let columns = Column.allCases.map(\.storedCondition)
            + ["typeof(search_key) = 'text'", "typeof(content_digest) = 'integer'", "typeof(sources_digest) = 'integer'"]
        return """
            SELECT id FROM organization WHERE NOT (\(columns.joined(separator: " AND ")))
            UNION SELECT organization_id FROM organization_remark
                WHERE NOT (typeof(language) = 'text' AND typeof(value) = 'text')
            UNION SELECT organization_id FROM level2_override
                WHERE NOT (typeof(field) = 'text' AND typeof(level1_value) IN ('text', 'null') AND typeof(level2_value) = 'text')
            UNION SELECT organization_id FROM organization_member
                WHERE NOT (typeof(given_name) = 'text' AND typeof(infix_name) = 'text' AND typeof(family_name) = 'text'
                    AND typeof(is_former) = 'integer' AND typeof(is_deceased) = 'integer'
                    AND typeof(is_prospective) = 'integer' AND typeof(is_honorary) = 'integer')
            """
    }()

    /// The columns every query selects first, of table `organization` as `o`; the Level 1 path
    /// from table `source_document`, or with `level1Documents` false from the column of a database
    /// that a hubgeo from before migration "v8 each fact once" wrote (``SourceDocuments``).
    static func columns(level1Documents: Bool) -> String {
        level1Documents ? columnsFromDocuments : list(Column.allCases, level1Documents: false)
    }

    private static let columnsFromDocuments = list(Column.allCases)

    /// The position of the first column a query selects after ``columns``.
    static let nextColumn = Column.allCases.count

    /// The columns the export's byte path selects first: those it writes, at the same positions.
    static let exportColumns = list(Column.allCases.prefix { $0.rawValue <= Column.memberCount.rawValue })

    /// The position of the first column the export selects after ``exportColumns``.
    static let nextExportColumn = Int32(Column.memberCount.rawValue + 1)

    private static func list(_ columns: some Sequence<Column>, level1Documents: Bool = true) -> String {
        columns.map { $0.expression(level1Documents: level1Documents) }.joined(separator: ", ")
    }

    /// The organization of a row that starts with ``columns``, without its remarks, overrides and
    /// members. Throws ``DamagedData`` for a value that is not what ``Column/kind`` says.
    static func organizationWithoutRelations(from row: Row) throws -> Organization {
        let checked = CheckedRow(row, place: "organization row \(row[Column.id.index] as Int64)")
        func text(_ column: Column) throws -> String { try checked.text(column.index, column.name) }
        func optionalText(_ column: Column) throws -> String? { try checked.optionalText(column.index, column.name) }
        func number(_ column: Column) throws -> Double { try checked.number(column.index, column.name, in: column.kind.range) }
        _ = try text(.stableID)  // not kept (the identity gives it), but a row without one is damaged
        return Organization(
            type: try checked.type(Column.type.index),
            identity: OrganizationIdentity(town: try text(.town), fullName: try text(.fullName)),
            nickName: try text(.nickName),
            coordinates: GeoPoint(latitude: try number(.latitude), longitude: try number(.longitude)),
            website: try optionalText(.website), wikipedia: try optionalText(.wikipedia), level2URL: try optionalText(.level2URL),
            maintainerEmail: try optionalText(.maintainerEmail),
            fotobondNumber: try checked.optionalInteger(Column.fotobondNumber.index, Column.fotobondNumber.name),
            memberCount: try checked.optionalInteger(Column.memberCount.index, Column.memberCount.name),
            hasLevel2: try checked.boolean(Column.hasLevel2.index, Column.hasLevel2.name),
            level1Source: try text(.level1Source), level2Source: try optionalText(.level2Source))
    }

    /// Fills in the remarks and overrides (and, with `includeMembers`, the members) of `matches`,
    /// whose row ids are `ids`: one statement each for the whole chunk.
    static func addRelations(to matches: inout [PlaceMatch], ids: [Int64], includeMembers: Bool, db: Database) throws {
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        var index: [Int64: Int] = [:]
        for (position, id) in ids.enumerated() { index[id] = position }
        let remarkRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, language, value FROM organization_remark
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, language
            """), arguments: [idList])
        while let row = try remarkRows.next() {
            if let position = index[row[0]] {
                let checked = CheckedRow(row, place: "organization_remark of organization row \(row[0] as Int64)")
                matches[position].organization.remarks.append(LocalizedRemark(
                    language: try checked.text(1, "language"), value: try checked.text(2, "value")))
            }
        }
        let overrideRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, field, level1_value, level2_value FROM level2_override
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, field
            """), arguments: [idList])
        while let row = try overrideRows.next() {
            if let position = index[row[0]] {
                let checked = CheckedRow(row, place: "level2_override of organization row \(row[0] as Int64)")
                matches[position].organization.overrides.append(FieldOverride(
                    field: try checked.text(1, "field"), level1Value: try checked.optionalText(2, "level1_value"),
                    level2Value: try checked.text(3, "level2_value")))
            }
        }
        guard includeMembers else { return }
        let memberRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, given_name, infix_name, family_name, is_former, is_deceased, is_prospective, is_honorary
            FROM organization_member
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, position
            """), arguments: [idList])
        while let row = try memberRows.next() {
            if let position = index[row[0]] {
                let checked = CheckedRow(row, place: "organization_member of organization row \(row[0] as Int64)")
                matches[position].organization.members.append(Member(
                    givenName: try checked.text(1, "given_name"), infixName: try checked.text(2, "infix_name"),
                    familyName: try checked.text(3, "family_name"), isFormerMember: try checked.boolean(4, "is_former"),
                    isDeceased: try checked.boolean(5, "is_deceased"), isProspectiveMember: try checked.boolean(6, "is_prospective"),
                    isHonoraryMember: try checked.boolean(7, "is_honorary")))
            }
        }
    }
}
