import Foundation
import GRDB

extension OrganizationStore {
    /// Makes the database hold exactly `data`: adds new organizations, updates changed ones,
    /// deletes those no longer in the data. All in one transaction: if anything fails, the
    /// database keeps its previous content.
    @discardableResult
    public func importData(_ data: HubData, now: Date = Date()) throws -> ImportSummary {
        try importOrganizations(source: data.source, now: now) { add in
            for organization in data.organizations { try add(organization) }
        }
    }

    /// The streaming form of ``importData(_:now:)``: `produce` hands every organization of the
    /// data set to `add`, one at a time (from ``HubLoader/load(root:level2Files:each:)``), and
    /// the database ends up holding exactly those, in one transaction. Only a small key per stored
    /// organization is kept in memory. Into an empty database the rows are bulk loaded and the
    /// spatial index is built once at the end (see ``SpatialIndex``).
    @discardableResult
    public func importOrganizations(source: String, now: Date = Date(),
                                    _ produce: (_ add: (Organization) throws -> Void) throws -> Void) throws -> ImportSummary {
        try pool.write { db in
            // A large import touches the table and its four indexes all over: a 64 MiB page cache
            // for this connection instead of 2 MiB keeps them in memory (restored afterwards).
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -65536")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            var summary = ImportSummary()
            var existing: [UInt64: (id: Int64, fingerprint: UInt64)] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, stable_id, fingerprint FROM organization")
            while let row = try rows.next() {
                if let key = UInt64(row["stable_id"] as String, radix: 16) {
                    existing[key] = (row["id"], Self.fingerprintValue(row["fingerprint"]) ?? 0)
                }
            }
            let triggers = existing.isEmpty ? try SpatialIndex.beginBulkLoad(db) : nil
            var kept: Set<Int64> = []
            var total = 0
            try produce { organization in
                total += 1
                let fingerprint = Self.fingerprint(of: organization)
                if let old = existing[organization.identity.stableHash] {
                    kept.insert(old.id)
                    if old.fingerprint == fingerprint {
                        summary.unchanged += 1
                        try db.cachedStatement(sql: "UPDATE organization SET level1_source = ?, level2_source = ? WHERE id = ?")
                            .execute(arguments: [organization.level1Source, organization.level2Source, old.id])
                        return
                    }
                    try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?").execute(arguments: [old.id])
                    try insert(organization, fingerprint: Self.fingerprintText(fingerprint), id: old.id, db: db)
                    summary.noteChanged(organization.identity)
                } else {
                    try insert(organization, fingerprint: Self.fingerprintText(fingerprint), id: nil, db: db)
                    summary.noteAdded(organization.identity)
                }
            }
            for old in existing.values where !kept.contains(old.id) {
                if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT town, full_name FROM organization WHERE id = ?"),
                                              arguments: [old.id]) {
                    summary.noteRemoved(OrganizationIdentity(town: row["town"], fullName: row["full_name"]))
                }
                try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?").execute(arguments: [old.id])
            }
            if let triggers { try SpatialIndex.finishBulkLoad(db, restoring: triggers) }
            summary.total = total
            try db.cachedStatement(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [source, ISO8601DateFormatter().string(from: now), summary.total,
                                 summary.addedCount, summary.changedCount, summary.removedCount])
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
    /// changed organizations from unchanged ones: every field, each followed by a separator.
    static func fingerprint(of organization: Organization) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String?) {
            if let text {
                for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
            } else {
                hash = (hash ^ 0x1E) &* 0x0000_0100_0000_01B3
            }
        }
        add(organization.type.rawValue)
        add(organization.identity.town)
        add(organization.identity.fullName)
        add(organization.nickName)
        add(String(organization.coordinates.latitude.bitPattern))
        add(String(organization.coordinates.longitude.bitPattern))
        add(organization.website)
        add(organization.wikipedia)
        add(organization.level2URL)
        add(organization.maintainerEmail)
        add(organization.fotobondNumber.map(String.init))
        add(organization.memberCount.map(String.init))
        add(organization.hasLevel2 ? "1" : "0")
        add(String(organization.remarks.count))
        for remark in organization.remarks {
            add(remark.language)
            add(remark.value)
        }
        add(String(organization.members.count))
        for member in organization.members {
            add(member.givenName)
            add(member.infixName)
            add(member.familyName)
            add([member.isFormerMember, member.isDeceased, member.isProspectiveMember, member.isHonoraryMember]
                .map { $0 ? "1" : "0" }.joined())
        }
        add(String(organization.overrides.count))
        for override in organization.overrides {
            add(override.field)
            add(override.level1Value)
            add(override.level2Value)
        }
        return hash
    }

    /// A fingerprint as stored: "v2-" and 16 hex digits (the "v2-" tells it from older digests).
    static func fingerprintText(_ fingerprint: UInt64) -> String {
        let hex = String(fingerprint, radix: 16)
        return "v2-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The stored text's fingerprint; nil for an older kind of digest (such a row counts as changed once).
    static func fingerprintValue(_ text: String) -> UInt64? {
        guard text.hasPrefix("v2-") else { return nil }
        return UInt64(text.dropFirst(3), radix: 16)
    }
}
