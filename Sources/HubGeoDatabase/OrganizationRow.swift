import GRDB
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// Turns `organization` rows (and their remark, member and override rows) back into values.
enum OrganizationRow {
    /// The columns every query selects, prefixed with the table alias `o`.
    static let columns = """
        o.id, o.stable_id, o.type, o.town, o.full_name, o.nick_name, o.latitude, o.longitude, o.website, o.wikipedia,
        o.level2_url, o.maintainer_email, o.fotobond_number, o.has_level2, o.member_count,
        o.level1_source, o.level2_source
        """

    /// The number of ``columns``.
    static let columnCount = 17

    /// Builds an organization from a row that starts with ``columns`` (read by position, not by
    /// name), without its remarks, overrides and members.
    static func organizationWithoutRelations(from row: Row) -> Organization {
        let typeName: String = row[2]
        return Organization(
            type: OrganizationType(rawValue: typeName) ?? .club,
            identity: OrganizationIdentity(town: row[3], fullName: row[4]),
            nickName: row[5],
            coordinates: GeoPoint(latitude: row[6], longitude: row[7]),
            website: row[8], wikipedia: row[9], level2URL: row[10],
            maintainerEmail: row[11], fotobondNumber: row[12],
            memberCount: row[14], hasLevel2: row[13], level1Source: row[15], level2Source: row[16])
    }

    /// Builds an organization from a row; remarks and overrides always, member records on request.
    static func organization(from row: Row, db: Database, includeMembers: Bool) throws -> Organization {
        let id: Int64 = row["id"]
        let typeName: String = row["type"]
        var organization = Organization(
            type: OrganizationType(rawValue: typeName) ?? .club,
            identity: OrganizationIdentity(town: row["town"], fullName: row["full_name"]),
            nickName: row["nick_name"],
            coordinates: GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
            website: row["website"], wikipedia: row["wikipedia"], level2URL: row["level2_url"],
            maintainerEmail: row["maintainer_email"], fotobondNumber: row["fotobond_number"],
            memberCount: row["member_count"], hasLevel2: row["has_level2"], level1Source: row["level1_source"], level2Source: row["level2_source"])
        organization.remarks = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT language, value FROM organization_remark WHERE organization_id = ? ORDER BY language"),
            arguments: [id]
        ).map { LocalizedRemark(language: $0["language"], value: $0["value"]) }
        organization.overrides = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT field, level1_value, level2_value FROM level2_override WHERE organization_id = ? ORDER BY field"),
            arguments: [id]
        ).map { FieldOverride(field: $0["field"], level1Value: $0["level1_value"], level2Value: $0["level2_value"]) }
        if includeMembers {
            organization.members = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM organization_member WHERE organization_id = ? ORDER BY position"),
                arguments: [id]
            ).map {
                Member(givenName: $0["given_name"], infixName: $0["infix_name"], familyName: $0["family_name"],
                       isFormerMember: $0["is_former"], isDeceased: $0["is_deceased"],
                       isProspectiveMember: $0["is_prospective"], isHonoraryMember: $0["is_honorary"])
            }
        }
        return organization
    }
}
