import GRDB
import HubGeoModel

/// The one layout of an `organization` row as the queries select it, and the one decoder of it:
/// every read path selects ``columns`` first and reads them by ``Column`` position, from a GRDB
/// `Row` (``organizationWithoutRelations(from:)``) or, on the export's byte path, straight from
/// the statement (``ExportRowReader``). Remarks, overrides and members are read per chunk of
/// rows (``addRelations(to:ids:includeMembers:db:)``), never with a query per organization.
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

        /// The position in a GRDB `Row`.
        var index: Int { Int(rawValue) }
    }

    /// The columns every query selects first, prefixed with the table alias `o`.
    static let columns = list(Column.allCases)

    /// The position of the first column a query selects after ``columns``.
    static let nextColumn = Column.allCases.count

    /// The columns the export's byte path selects first: those it writes, at the same positions.
    static let exportColumns = list(Column.allCases.prefix { $0.rawValue <= Column.memberCount.rawValue })

    /// The position of the first column the export selects after ``exportColumns``.
    static let nextExportColumn = Int32(Column.memberCount.rawValue + 1)

    private static func list(_ columns: some Sequence<Column>) -> String {
        columns.map { "o." + $0.name }.joined(separator: ", ")
    }

    /// The organization of a row that starts with ``columns``, without its remarks, overrides and members.
    static func organizationWithoutRelations(from row: Row) -> Organization {
        let typeName: String = row[Column.type.index]
        return Organization(
            type: OrganizationType(rawValue: typeName) ?? .club,
            identity: OrganizationIdentity(town: row[Column.town.index], fullName: row[Column.fullName.index]),
            nickName: row[Column.nickName.index],
            coordinates: GeoPoint(latitude: row[Column.latitude.index], longitude: row[Column.longitude.index]),
            website: row[Column.website.index], wikipedia: row[Column.wikipedia.index], level2URL: row[Column.level2URL.index],
            maintainerEmail: row[Column.maintainerEmail.index], fotobondNumber: row[Column.fotobondNumber.index],
            memberCount: row[Column.memberCount.index], hasLevel2: row[Column.hasLevel2.index],
            level1Source: row[Column.level1Source.index], level2Source: row[Column.level2Source.index])
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
                matches[position].organization.remarks.append(LocalizedRemark(language: row[1], value: row[2]))
            }
        }
        let overrideRows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT organization_id, field, level1_value, level2_value FROM level2_override
            WHERE organization_id IN (SELECT value FROM json_each(?)) ORDER BY organization_id, field
            """), arguments: [idList])
        while let row = try overrideRows.next() {
            if let position = index[row[0]] {
                matches[position].organization.overrides.append(FieldOverride(field: row[1], level1Value: row[2], level2Value: row[3]))
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
                matches[position].organization.members.append(Member(
                    givenName: row[1], infixName: row[2], familyName: row[3], isFormerMember: row[4], isDeceased: row[5],
                    isProspectiveMember: row[6], isHonoraryMember: row[7]))
            }
        }
    }
}
