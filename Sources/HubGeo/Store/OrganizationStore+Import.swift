import Foundation
import GRDB

extension OrganizationStore {
    /// Makes the database hold exactly `data`: adds new organizations, updates changed ones,
    /// deletes those no longer in the data. All in one transaction: if anything fails, the
    /// database keeps its previous content.
    @discardableResult
    public func importData(_ data: HubData, now: Date = Date()) throws -> ImportSummary {
        try pool.write { db in
            var summary = ImportSummary()
            var existing: [String: (id: Int64, fingerprint: String, identity: OrganizationIdentity)] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT id, stable_id, fingerprint, town, full_name FROM organization")
            for row in rows {
                existing[row["stable_id"]] = (row["id"], row["fingerprint"],
                                               OrganizationIdentity(town: row["town"], fullName: row["full_name"]))
            }
            var seen: Set<String> = []
            for organization in data.organizations {
                let stableID = organization.stableID
                seen.insert(stableID)
                let fingerprint = Self.fingerprint(of: organization)
                if let old = existing[stableID] {
                    if old.fingerprint == fingerprint {
                        summary.unchanged += 1
                        try db.cachedStatement(sql: "UPDATE organization SET level1_source = ?, level2_source = ? WHERE id = ?")
                            .execute(arguments: [organization.level1Source, organization.level2Source, old.id])
                        continue
                    }
                    try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?").execute(arguments: [old.id])
                    try insert(organization, fingerprint: fingerprint, id: old.id, db: db)
                    summary.changed.append(organization.identity)
                } else {
                    try insert(organization, fingerprint: fingerprint, id: nil, db: db)
                    summary.added.append(organization.identity)
                }
            }
            for (stableID, old) in existing where !seen.contains(stableID) {
                try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?").execute(arguments: [old.id])
                summary.removed.append(old.identity)
            }
            summary.total = data.organizations.count
            try db.cachedStatement(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [data.source, ISO8601DateFormatter().string(from: now), summary.total,
                                 summary.added.count, summary.changed.count, summary.removed.count])
            summary.added.sort()
            summary.changed.sort()
            summary.removed.sort()
            return summary
        }
    }

    private func insert(_ organization: Organization, fingerprint: String, id: Int64?, db: Database) throws {
        let searchKey = [organization.fullName, organization.nickName, organization.town].joined(separator: "\u{1F}").searchFolded
        try db.cachedStatement(sql: """
            INSERT INTO organization (id, stable_id, type, town, full_name, nick_name, latitude, longitude,
                website, wikipedia, level2_url, maintainer_email, fotobond_number, has_level2, member_count,
                level1_source, level2_source, search_key, fingerprint, geom)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, MakePoint(?, ?, 4326))
            """).execute(arguments: [
                id, organization.stableID, organization.type.rawValue, organization.town, organization.fullName,
                organization.nickName, organization.coordinates.latitude, organization.coordinates.longitude,
                organization.website, organization.wikipedia, organization.level2URL, organization.maintainerEmail,
                organization.fotobondNumber, organization.hasLevel2, organization.memberCount,
                organization.level1Source, organization.level2Source, searchKey, fingerprint,
                organization.coordinates.longitude, organization.coordinates.latitude,
            ])
        let rowID = db.lastInsertedRowID
        for remark in organization.remarks {
            try db.cachedStatement(sql: "INSERT INTO organization_remark (organization_id, language, value) VALUES (?, ?, ?)")
                .execute(arguments: [rowID, remark.language, remark.value])
        }
        for (position, member) in organization.members.enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO organization_member (organization_id, position, given_name, infix_name, family_name,
                    is_former, is_deceased, is_prospective, is_honorary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [rowID, position, member.givenName, member.infixName, member.familyName,
                                 member.isFormerMember, member.isDeceased, member.isProspectiveMember, member.isHonoraryMember])
        }
        for override in organization.overrides {
            try db.cachedStatement(sql: "INSERT INTO level2_override (organization_id, field, level1_value, level2_value) VALUES (?, ?, ?, ?)")
                .execute(arguments: [rowID, override.field, override.level1Value, override.level2Value])
        }
    }

    /// A digest of everything an organization says (not where it was read from), to tell
    /// changed organizations from unchanged ones.
    static func fingerprint(of organization: Organization) -> String {
        var content = organization
        content.level1Source = ""
        content.level2Source = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return FNV1a.hexDigest((try? encoder.encode(content)) ?? Data())
    }
}
