import Foundation
import GRDB
import HubGeoModel


extension OrganizationStore {
    /// Makes the database hold exactly the organizations that `produce` hands to `add`, one at a
    /// time: adds new organizations, updates changed ones, deletes those no longer there, in one
    /// transaction (an error from `produce` rolls it back). Only a small key per stored
    /// organization is kept in memory. An unchanged organization is not written at all. Into an
    /// empty database the rows are bulk loaded and the spatial index is built once at the end
    /// (see ``SpatialIndex``).
    @discardableResult
    package func importOrganizations(source: String, now: Date = Date(),
                                    _ produce: (_ add: (Organization) throws -> Void) throws -> Void) throws -> ImportSummary {
        try withoutActuallyEscaping(produce) { produce in
            try importOrganizations(source: source, now: now) { add, _ in try produce(add) }
        }
    }

    /// The same, with `produce` given the document cache of the import's transaction too, whose
    /// writes commit or roll back with the organizations.
    package func importOrganizations(source: String, now: Date = Date(),
                             _ produce: (_ add: (Organization) throws -> Void, _ documentCache: DatabaseDocumentCache) throws -> Void) throws -> ImportSummary {
        try runImport(source: source, now: now) { transaction in
            try produce(transaction.add, transaction.documentCache)
        }
    }

    /// The same, with `produce` given the import's transaction: besides adding organizations and
    /// reaching the document cache, it may read the last import's ``ImportRecord`` and keep the
    /// organizations as they are (``ImportTransaction/keepUnchanged()``), and it gives the record
    /// of this import (``ImportTransaction/record``), stored with its run.
    package func runImport(source: String, now: Date = Date(),
                           _ produce: (ImportTransaction) throws -> Void) throws -> ImportSummary {
        try database.write { db in
            // A large import touches the table and its indexes all over: a 32 MiB page cache
            // for this connection instead of 2 MiB keeps them in memory (restored afterwards).
            // 64 MiB took the same time (new imports of 200,000 organizations of both generated
            // shapes, 3.1-3.5 s, and of 1,000,000: 17.1 s against 16.8 s) for a peak 36 MB higher
            // at 200,000 (161 MB against 125 MB) and 43 MB at 1,000,000.
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -32768")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            // Rows written by another program since the last import: its record of them no longer holds.
            let writtenOutside = try OrganizationWrites.sinceImport(db) != nil && ClusterIndexTable.storedImportRun(db) != nil
            // A remark, member or override written by another program: rows the import has to see again.
            let relationsWritten = try OrganizationWrites.relationsWrittenSinceImport(db)
            try OrganizationWrites.setAsideRelationTriggers(db)
            let transaction = ImportTransaction(db, trusted: !writtenOutside && !relationsWritten)
            try produce(transaction)
            if transaction.keptUnchanged {
                let summary = try transaction.finishUnchanged(source: source, now: now)
                try OrganizationWrites.restoreRelationTriggers(db)
                return summary
            }
            let started = try transaction.finishedSync()
            var sync = started.sync
            try sync.removeUnseen(db)
            if sync.summary.addedCount + sync.summary.changedCount + sync.summary.removedCount + sync.sourcesMoved > 0
                || !sync.damaged.isEmpty {
                try SourceDocuments.removeUnused(db)  // a scan of the table (30 ms at 200,000): only when rows were written
            }
            if let triggers = started.triggers {
                try SpatialIndex.finishBulkLoad(db, restoring: triggers)
                try RemarkTable.finishBulkLoad(db)
            }
            var summary = sync.summary
            summary.probableRenames = sync.probableRenames()
            if !sync.damaged.isEmpty {
                let ids = sync.damaged.sorted()
                summary.repairs.append("organization row\(ids.count == 1 ? "" : "s") "
                    + ids.prefix(10).map(String.init).joined(separator: ", ") + (ids.count > 10 ? " and \(ids.count - 10) more" : "")
                    + " held values hubgeo does not write (a damaged database); rewritten from the data, or removed")
            }
            try StoredCredentials.remove(in: db)
            if let damage = try ImportStatistics.damageInLastRun(db) {
                summary.repairs.append("\(damage); recorded anew")
            }
            try db.execute(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed, \(ImportStatistics.columns.joined(separator: ", ")))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [source, RFC3339.string(now), summary.total,
                                 summary.addedCount, summary.changedCount, summary.removedCount] + sync.statistics.arguments)
            let run = db.lastInsertedRowID
            try ImportRecordTables.store(transaction.record, run: run, db)
            if let damage = try ClusterIndexTable.refresh(
                db, importRun: run,
                organizationsChanged: summary.addedCount + summary.changedCount + summary.removedCount > 0 || !sync.damaged.isEmpty
                    || writtenOutside) {
                summary.repairs.append("\(damage); rebuilt")
            }
            if writtenOutside {
                summary.repairs.append("table organization was written by another program since the last import; "
                    + "its rows and the map's cluster index are those of the data again")
            }
            try OrganizationWrites.markImported(db)
            try OrganizationWrites.restoreRelationTriggers(db)
            summary.added.sort()
            summary.changed.sort()
            summary.removed.sort()
            return summary
        }
    }

    /// An import's transaction, as the producer of its organizations sees it.
    package final class ImportTransaction {
        /// The document cache, whose writes commit or roll back with the organizations.
        package let documentCache: DatabaseDocumentCache
        /// What this import read, stored with its run; nil (the default): nothing is recorded,
        /// and the next import reads every document.
        package var record: ImportRecord?
        private let db: Database
        /// No other program wrote the organizations or their rows since the last import.
        private let trusted: Bool
        private var sync: SyncState?
        private var writer: RowWriter?
        private var triggers: [String]?
        fileprivate private(set) var keptUnchanged = false

        fileprivate init(_ db: Database, trusted: Bool) {
            self.db = db
            self.trusted = trusted
            documentCache = DatabaseDocumentCache(db)
        }

        /// Hands on one organization of the data.
        package func add(_ organization: Organization) throws {
            try add(ImportedOrganization(organization))
        }

        /// Hands on one organization of the data, with its row's values computed (on another thread, maybe).
        package func add(_ imported: ImportedOrganization) throws {
            precondition(!keptUnchanged, "an import kept unchanged adds nothing")
            if sync == nil { try startSync() }
            try sync!.apply(imported, writer: writer!, db: db)
        }

        /// The last import's record, when this import may keep its organizations: the last run
        /// was asked `request` and recorded what it read, no other program wrote table
        /// organization or its remarks, members or overrides since (``OrganizationWrites``), and
        /// the run's counts read. Nil otherwise.
        package func lastRecord(request: String) throws -> ImportRecord? {
            guard trusted, sync == nil, try ImportStatistics.stored(in: db),
                  try ImportStatistics.damageInLastRun(db) == nil,
                  try Int.fetchOne(db, sql: "SELECT clubs FROM import_run ORDER BY id DESC LIMIT 1") != nil
            else { return nil }
            return try ImportRecordTables.last(db, request: request)
        }

        /// Ends the import without reading the data: the organizations, the counts and the
        /// record stay as the last run left them (call only after ``lastRecord(request:)`` gave
        /// one, and before any ``add(_:)``).
        package func keepUnchanged() {
            precondition(sync == nil, "an import that added organizations cannot keep them unchanged")
            keptUnchanged = true
        }

        /// The overrides the stored organizations hold, by organization as stored and by field.
        package func storedOverrides() throws -> [(organization: OrganizationIdentity, override: FieldOverride)] {
            try Row.fetchAll(db, sql: """
                SELECT o.town, o.full_name, l.field, l.level1_value, l.level2_value
                FROM level2_override l JOIN organization o ON o.id = l.organization_id ORDER BY o.id, l.field
                """).map { row in
                    (OrganizationIdentity(town: row[0], fullName: row[1]),
                     FieldOverride(field: row[2], level1Value: row[3], level2Value: row[4]))
                }
        }

        /// Begins the sync of the organizations, at the first one added (the bulk load's
        /// triggers set aside when the table is empty).
        private func startSync() throws {
            let state = try SyncState(db)
            triggers = state.existing.isEmpty && state.damaged.isEmpty ? try SpatialIndex.beginBulkLoad(db) : nil
            if triggers != nil { try RemarkTable.beginBulkLoad(db) }
            writer = try RowWriter(db)
            sync = state
        }

        /// The sync once every organization was added (begun now when none was), and the
        /// triggers the bulk load set aside.
        fileprivate func finishedSync() throws -> (sync: SyncState, triggers: [String]?) {
            if sync == nil { try startSync() }
            return (sync!, triggers)
        }

        /// Records the run of an import kept unchanged: the last run's counts again, nothing
        /// added, changed or removed, the stored cluster index checked.
        fileprivate func finishUnchanged(source: String, now: Date) throws -> ImportSummary {
            try db.execute(sql: """
                INSERT INTO import_run (source, imported_at, organizations, added, changed, removed, \(ImportStatistics.columns.joined(separator: ", ")), request)
                SELECT ?, ?, organizations, 0, 0, 0, \(ImportStatistics.columns.joined(separator: ", ")), request
                FROM import_run ORDER BY id DESC LIMIT 1
                """, arguments: [source, RFC3339.string(now)])
            let run = db.lastInsertedRowID
            var summary = ImportSummary()
            summary.total = try Int.fetchOne(db, sql: "SELECT organizations FROM import_run WHERE id = ?", arguments: [run]) ?? 0
            summary.unchanged = summary.total
            try StoredCredentials.remove(in: db)
            if let damage = try ClusterIndexTable.refresh(db, importRun: run, organizationsChanged: false) {
                summary.repairs.append("\(damage); rebuilt")
            }
            try OrganizationWrites.markImported(db)
            return summary
        }
    }

    /// What the sync knows while organizations stream in: the stored ones by stable id, whether
    /// each was seen, and what it did.
    fileprivate struct SyncState {
        /// 24 bytes per stored organization (a million of them: about 70 MB with the table).
        struct Stored {
            /// The row id; negated once the organization was seen in the data.
            var id: Int64
            /// The digests; 0 when unknown (an older kind of fingerprint, migrated), which no digest equals in practice.
            var content: UInt64
            var sources: UInt64
            var seen: Bool { id < 0 }
            var rowID: Int64 { abs(id) }
        }

        /// Stored organizations by ``OrganizationIdentity/stableHash``.
        var existing: [UInt64: Stored] = [:]
        var summary = ImportSummary()
        /// The counts and extent of the organizations the database holds once the sync is done:
        /// those it adds, rewrites or keeps (``ImportStatistics``).
        var statistics = ImportStatistics()
        /// Added organizations, to match against removed ones (none on a first import).
        var added: [ImportSummary.Place] = []
        var removed: [ImportSummary.Place] = []
        /// Unchanged organizations read from another file than before (their sources rewritten).
        var sourcesMoved = 0

        /// The rows that do not hold what hubgeo writes (``OrganizationRow/damagedRowsSQL``, or a
        /// stable id that is not one): rewritten from the data (their content digest is taken as
        /// unknown), or removed when the data does not hold them, or at once when they cannot even
        /// be matched with the data.
        var damaged: Set<Int64> = []

        init(_ db: Database) throws {
            existing.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0)
            damaged = Set(try Int64.fetchAll(db, sql: OrganizationRow.damagedRowsSQL))
            var unmatched: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT id, stable_id, content_digest, sources_digest FROM organization")
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let stableID = (row[1] as DatabaseValue).storage
                guard case .string(let text) = stableID, let key = UInt64(text, radix: 16), existing[key] == nil else {
                    unmatched.append(id)
                    continue
                }
                guard case .int64(let content) = (row[2] as DatabaseValue).storage,
                      case .int64(let sources) = (row[3] as DatabaseValue).storage, !damaged.contains(id) else {
                    existing[key] = Stored(id: id, content: 0, sources: 0)
                    damaged.insert(id)
                    continue
                }
                existing[key] = Stored(id: id, content: UInt64(bitPattern: content), sources: UInt64(bitPattern: sources))
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?")
            for id in unmatched {
                try delete.execute(arguments: [id])
                damaged.insert(id)
            }
        }

        mutating func apply(_ imported: ImportedOrganization, writer: RowWriter, db: Database) throws {
            summary.total += 1
            let organization = imported.organization, fingerprint = imported.fingerprint
            guard let index = existing.index(forKey: imported.stableHash) else {
                try writer.insert(imported, id: nil)
                statistics.add(organization)
                summary.noteAdded(organization.identity)
                if !existing.isEmpty && added.count < ImportSummary.renameCandidateLimit {
                    added.append(ImportSummary.Place(organization))
                }
                return
            }
            let stored = existing.values[index]
            guard !stored.seen else { return }  // the loader drops duplicates; never twice
            existing.values[index].id = -stored.id
            statistics.add(organization)  // kept as it is (its content is the data's), or rewritten below
            if stored.content == fingerprint.content {
                summary.unchanged += 1
                if stored.sources != fingerprint.sources {  // the same organization, read from another file
                    try writer.updateSources(imported, id: stored.rowID)
                    sourcesMoved += 1
                }
                return
            }
            try writer.delete(id: stored.rowID)
            try writer.insert(imported, id: stored.rowID)
            summary.noteChanged(organization.identity)
        }

        /// Deletes the stored organizations that the data no longer holds.
        mutating func removeUnseen(_ db: Database) throws {
            let unseen = existing.values.filter { !$0.seen }.map(\.rowID)
            guard !unseen.isEmpty else { return }
            let select = try db.cachedStatement(sql: "SELECT town, full_name, nick_name, latitude, longitude FROM organization WHERE id = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM organization WHERE id = ?")
            for id in unseen {
                if let row = try Row.fetchOne(select, arguments: [id]) {
                    let checked = CheckedRow(row, place: "organization row \(id)")
                    if let place = try? ImportSummary.Place(
                        identity: OrganizationIdentity(town: checked.text(0, "town"), fullName: checked.text(1, "full_name")),
                        nickName: checked.text(2, "nick_name"),
                        coordinates: GeoPoint(latitude: checked.number(3, "latitude", in: -90...90),
                                              longitude: checked.number(4, "longitude", in: -180...180))) {
                        summary.noteRemoved(place.identity)
                        if removed.count < ImportSummary.renameCandidateLimit { removed.append(place) }
                    } else {
                        // A damaged row (``damaged``), named as far as it can be.
                        summary.noteRemoved(OrganizationIdentity(town: checked.textOrEmpty(0), fullName: checked.textOrEmpty(1)))
                    }
                }
                try delete.execute(arguments: [id])
            }
        }

        /// Each added organization with the same full name or nickname as a removed one, within
        /// ``ImportSummary/renameDistanceMeters`` (the geodesic distance on WGS84, ``Geodesic``).
        func probableRenames() -> [ImportSummary.ProbableRename] {
            ImportSummary.probableRenames(added: added, removed: removed)
        }
    }

    /// The import's prepared statements.
    fileprivate final class RowWriter {
        let insertOrganization: PreparedStatement
        let insertRemark: PreparedStatement
        let insertMember: PreparedStatement
        let insertOverride: PreparedStatement
        let updateSources: PreparedStatement
        let deleteOrganization: PreparedStatement
        let documents: SourceDocuments.Writer
        let db: Database

        init(_ db: Database) throws {
            self.db = db
            insertOrganization = try PreparedStatement(db, sql: """
                INSERT INTO organization (id, stable_id, type, town, full_name, nick_name, latitude, longitude,
                    website, wikipedia, level2_url, maintainer_email, fotobond_number, has_level2, member_count,
                    level1_document, level2_source, search_key, content_digest, sources_digest, geom)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insertRemark = try PreparedStatement(db, sql: "INSERT INTO organization_remark (organization_id, language, value) VALUES (?, ?, ?)")
            insertMember = try PreparedStatement(db, sql: """
                INSERT INTO organization_member (organization_id, position, given_name, infix_name, family_name,
                    is_former, is_deceased, is_prospective, is_honorary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insertOverride = try PreparedStatement(db, sql: "INSERT INTO level2_override (organization_id, field, level1_value, level2_value) VALUES (?, ?, ?, ?)")
            updateSources = try PreparedStatement(db, sql: "UPDATE organization SET level1_document = ?, level2_source = ?, sources_digest = ? WHERE id = ?")
            deleteOrganization = try PreparedStatement(db, sql: "DELETE FROM organization WHERE id = ?")
            documents = try SourceDocuments.Writer(db)
        }

        func insert(_ imported: ImportedOrganization, id: Int64?) throws {
            let statement = insertOrganization
            let organization = imported.organization
            statement.bind(1, id)
            statement.bind(2, imported.stableID)
            statement.bind(3, organization.type.rawValue)
            statement.bind(4, organization.town)
            statement.bind(5, organization.fullName)
            statement.bind(6, organization.nickName)
            statement.bind(7, organization.coordinates.latitude)
            statement.bind(8, organization.coordinates.longitude)
            statement.bind(9, organization.website)
            statement.bind(10, organization.wikipedia)
            statement.bind(11, organization.level2URL)
            statement.bind(12, organization.maintainerEmail)
            statement.bind(13, organization.fotobondNumber)
            statement.bind(14, organization.hasLevel2)
            statement.bind(15, organization.memberCount)
            statement.bind(16, try documents.id(organization.level1Source))
            statement.bind(17, organization.level2Source)
            statement.bind(18, imported.searchKey)
            statement.bind(19, Int64(bitPattern: imported.fingerprint.content))
            statement.bind(20, Int64(bitPattern: imported.fingerprint.sources))
            SpatiaLitePoint.withBlob(longitude: organization.coordinates.longitude, latitude: organization.coordinates.latitude) {
                statement.bind(21, blob: $0)
            }
            try statement.execute()
            let rowID = db.lastInsertedRowID
            for remark in organization.remarks {
                insertRemark.bind(1, rowID)
                insertRemark.bind(2, remark.language)
                insertRemark.bind(3, remark.value)
                try insertRemark.execute()
            }
            for (position, member) in organization.members.enumerated() {
                insertMember.bind(1, rowID)
                insertMember.bind(2, position)
                insertMember.bind(3, member.givenName)
                insertMember.bind(4, member.infixName)
                insertMember.bind(5, member.familyName)
                insertMember.bind(6, member.isFormerMember)
                insertMember.bind(7, member.isDeceased)
                insertMember.bind(8, member.isProspectiveMember)
                insertMember.bind(9, member.isHonoraryMember)
                try insertMember.execute()
            }
            for override in organization.overrides {
                insertOverride.bind(1, rowID)
                insertOverride.bind(2, override.field)
                insertOverride.bind(3, override.level1Value)
                insertOverride.bind(4, override.level2Value)
                try insertOverride.execute()
            }
        }

        func updateSources(_ imported: ImportedOrganization, id: Int64) throws {
            updateSources.bind(1, try documents.id(imported.organization.level1Source))
            updateSources.bind(2, imported.organization.level2Source)
            updateSources.bind(3, Int64(bitPattern: imported.fingerprint.sources))
            updateSources.bind(4, id)
            try updateSources.execute()
        }

        func delete(id: Int64) throws {
            deleteOrganization.bind(1, id)
            try deleteOrganization.execute()
        }
    }

    /// Two digests of an organization (FNV-1a): `content`, of everything it says, tells changed
    /// organizations from unchanged ones; `sources`, of the files it was read from, tells when
    /// only those moved. Stored as two integers, `content_digest` and `sources_digest` (the bits of
    /// the UInt64 as SQLite's signed integer); before migration "v8 each fact once" as the text "v3-"
    /// and 16 + 16 hex digits, which ``parse(_:)`` reads for the migration.
    struct Fingerprint: Equatable {
        var content: UInt64
        var sources: UInt64

        init(content: UInt64, sources: UInt64) {
            self.content = content
            self.sources = sources
        }

        init(_ organization: Organization) {
            var hash = FNV1a()
            func add(_ text: String?) { hash.addField(text) }
            func add(_ number: UInt64) { hash.addField(number) }
            func add(_ number: Int) {
                if number < 0 {
                    add(String(number))
                } else {
                    add(UInt64(number))
                }
            }
            add(organization.type.rawValue)
            add(organization.identity.town)
            add(organization.identity.fullName)
            add(organization.nickName)
            add(organization.coordinates.latitude.bitPattern)
            add(organization.coordinates.longitude.bitPattern)
            add(organization.website)
            add(organization.wikipedia)
            add(organization.level2URL)
            add(organization.maintainerEmail)
            if let number = organization.fotobondNumber { add(number) } else { add(nil as String?) }
            if let count = organization.memberCount { add(count) } else { add(nil as String?) }
            add(organization.hasLevel2 ? "1" : "0")
            add(organization.remarks.count)
            for remark in organization.remarks {
                add(remark.language)
                add(remark.value)
            }
            add(organization.members.count)
            for member in organization.members {
                add(member.givenName)
                add(member.infixName)
                add(member.familyName)
                add([member.isFormerMember, member.isDeceased, member.isProspectiveMember, member.isHonoraryMember]
                    .map { $0 ? "1" : "0" }.joined())
            }
            add(organization.overrides.count)
            for override in organization.overrides {
                add(override.field)
                add(override.level1Value)
                add(override.level2Value)
            }
            content = hash.value
            hash = FNV1a()
            add(organization.level1Source)
            add(organization.level2Source)
            sources = hash.value
        }

        /// The stored text's digests; the content alone for the older "v2-" form, nothing for
        /// older ones (such a row counts as changed once).
        static func parse(_ text: String) -> (content: UInt64?, sources: UInt64?) {
            let digits = text.utf8.dropFirst(3)
            if text.hasPrefix("v3-"), digits.count == 32 {
                return (UInt64(String(text.dropFirst(3).prefix(16)), radix: 16), UInt64(String(text.suffix(16)), radix: 16))
            }
            if text.hasPrefix("v2-") { return (UInt64(text.dropFirst(3), radix: 16), nil) }
            return (nil, nil)
        }
    }
}
