import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoModel
import HubGeoTestSupport
import Testing

/// Migration "v8 each fact once" (``SourceDocuments``): a database that hubgeo wrote before it (the
/// Level 1 path and the fingerprint's text on every row) reads as before, migrates when next opened
/// for writing with everything it held, and a newer database is still refused.
@Suite("The database holds each fact once")
struct SchemaMigrationTests {
    /// Organizations of two Level 1 documents, one with remarks in two languages, members and a Level 2 file.
    static let organizations: [Organization] = {
        var first = Organization(type: .club, identity: OrganizationIdentity(town: "Waalre", fullName: "Fotogroep Waalre"),
                                 nickName: "fgWaalre", coordinates: GeoPoint(latitude: 51.39, longitude: 5.45),
                                 website: "https://example.org/fgw", hasLevel2: true,
                                 level1Source: "/data/root.level1.json", level2Source: "/data/fgWaalre.level2.json")
        first.remarks = [LocalizedRemark(language: "EN", value: "Meets on \"Tuesdays\" & <A3>"),
                         LocalizedRemark(language: "NL", value: "Komt op dinsdag samen")]
        first.members = [Member(givenName: "Jan", infixName: "van", familyName: "Dijk", isFormerMember: false,
                                isDeceased: false, isProspectiveMember: false, isHonoraryMember: true)]
        let second = Organization(type: .museum, identity: OrganizationIdentity(town: "Eindhoven", fullName: "Museum of Prints"),
                                  nickName: "MoP", coordinates: GeoPoint(latitude: 51.44, longitude: 5.48),
                                  level1Source: "/data/root.level1.json")
        let third = Organization(type: .club, identity: OrganizationIdentity(town: "Gent", fullName: "Fotoclub Gent"),
                                 nickName: "fcGent", coordinates: GeoPoint(latitude: 51.05, longitude: 3.72),
                                 level1Source: "embedded:belgium.level1.json")
        return [first, second, third]
    }()

    /// A database as hubgeo wrote it before migration "v8 each fact once": the migrations up to
    /// "v7 import documents", and `organizations` written in that schema as its import wrote them
    /// (the second with the older "v2-" fingerprint, the content digest alone), with their run
    /// recorded and the rows marked as the import's.
    static func databaseOfVersion7(at path: String) throws {
        let queue = try spatiaLiteQueue(path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = \(DatabaseFile.applicationID)")
            try DatabaseSchema.initializeSpatialMetadata(db)
        }
        try DatabaseSchema.migrator.migrate(queue, upTo: "v7 import documents")
        try queue.write { db in
            #expect(try !db.tableExists("source_document"))
            for (index, organization) in organizations.enumerated() {
                let fingerprint = OrganizationStore.Fingerprint(organization)
                let text = index == 1 ? "v2-" + FNV1a.hex(fingerprint.content)
                    : "v3-" + FNV1a.hex(fingerprint.content) + FNV1a.hex(fingerprint.sources)
                try db.execute(sql: """
                    INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, website,
                        has_level2, level1_source, level2_source, search_key, fingerprint, geom)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, MakePoint(?, ?, 4326))
                    """, arguments: [organization.identity.stableID, organization.type.rawValue, organization.town,
                                     organization.fullName, organization.nickName, organization.coordinates.latitude,
                                     organization.coordinates.longitude, organization.website, organization.hasLevel2,
                                     organization.level1Source, organization.level2Source,
                                     [organization.fullName, organization.nickName, organization.town].joined(separator: "\u{1F}").searchFolded,
                                     text, organization.coordinates.longitude, organization.coordinates.latitude])
                let id = db.lastInsertedRowID
                for remark in organization.remarks {
                    try db.execute(sql: "INSERT INTO organization_remark (organization_id, language, value) VALUES (?, ?, ?)",
                                   arguments: [id, remark.language, remark.value])
                }
                for (position, member) in organization.members.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO organization_member (organization_id, position, given_name, infix_name, family_name,
                            is_former, is_deceased, is_prospective, is_honorary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, position, member.givenName, member.infixName, member.familyName, member.isFormerMember,
                                         member.isDeceased, member.isProspectiveMember, member.isHonoraryMember])
                }
            }
            try db.execute(sql: "INSERT INTO import_run (source, imported_at, organizations, added, changed, removed) "
                           + "VALUES ('/data/root.level1.json', '2026-11-01T00:00:00Z', 3, 3, 0, 0)")
            try ClusterIndexTable.store(try ClusterIndexTable.build(db), db, importRun: db.lastInsertedRowID)
            try OrganizationWrites.markImported(db)
        }
        try queue.close()
    }

    /// A connection to `path` with SpatiaLite loaded, as hubgeo's own are.
    static func spatiaLiteQueue(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try SpatiaLiteExtension.load(into: db) }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every organization the store holds, with its remarks and members, by stable id.
    static func stored(_ store: OrganizationStore) throws -> [Organization] {
        var all: [Organization] = []
        try store.forEachStored { all.append($0) }
        return all
    }

    static var expected: [Organization] {
        organizations.sorted { $0.identity.stableID < $1.identity.stableID }
    }

    @Test("a database of before v8 reads as before, read-only and unmigrated; opened for writing it migrates and keeps every fact")
    func migratesAnOlderDatabase() throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.path("v7.sqlite")
        try Self.databaseOfVersion7(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        // A read-only command reads the Level 1 paths from the old column, and writes nothing.
        let readOnly = try OrganizationStore(path: path, access: .readOnly)
        #expect(try Self.stored(readOnly) == Self.expected)
        #expect(try readOnly.organization(named: "fcGent").level1Source == "embedded:belgium.level1.json")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        let store = try OrganizationStore(path: path)
        try store.database.read { db in
            #expect(try DatabaseSchema.migrator.hasCompletedMigrations(db))
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('organization')")
            #expect(!columns.contains("level1_source") && !columns.contains("fingerprint"), "\(columns)")
            #expect(try String.fetchAll(db, sql: "SELECT location FROM source_document ORDER BY id")
                    == ["/data/root.level1.json", "embedded:belgium.level1.json"])
            // The digests as the fingerprints said: the "v2-" form had no digest of the sources.
            let digests = try Row.fetchAll(db, sql: "SELECT content_digest, sources_digest FROM organization ORDER BY id")
                .map { (UInt64(bitPattern: $0[0]), UInt64(bitPattern: $0[1])) }
            let prints = Self.organizations.map(OrganizationStore.Fingerprint.init)
            #expect(digests.map(\.0) == prints.map(\.content))
            #expect(digests.map(\.1) == [prints[0].sources, 0, prints[2].sources])
            #expect(try Int64.fetchAll(db, sql: OrganizationRow.damagedRowsSQL).isEmpty)
            // The migration's updates are not another program's writes: the stored cluster index still holds.
            #expect(try OrganizationWrites.sinceImport(db) == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM import_run") == 1)
        }
        #expect(try Self.stored(store) == Self.expected)
        #expect(try store.organization(named: "fgWaalre").level2Source == "/data/fgWaalre.level2.json")

        // The next import finds every organization unchanged; the older fingerprint's sources are written.
        let summary = try store.importOrganizations(source: "again") { add in
            for organization in Self.organizations { try add(organization) }
        }
        #expect(summary.added.isEmpty && summary.changed.isEmpty && summary.removed.isEmpty && summary.unchanged == 3)
        #expect(try store.database.read { db in try Int64.fetchAll(db, sql: "SELECT sources_digest FROM organization ORDER BY id") }
                .map(UInt64.init(bitPattern:)) == Self.organizations.map { OrganizationStore.Fingerprint($0).sources })
        #expect(try Self.stored(store) == Self.expected)
    }

    @Test("the migration gives the space of the dropped path and fingerprint back to the file system (a vacuum once)")
    func migrationCompactsTheFile() throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.path("v7.sqlite")
        try Self.databaseOfVersion7(at: path)
        // 3,000 more organizations as the import of before wrote them: a long path and a fingerprint on each.
        let before = try Self.spatiaLiteQueue(path).write { db in
            try db.execute(sql: """
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 3000)
                INSERT INTO organization (stable_id, type, town, full_name, nick_name, latitude, longitude, has_level2,
                    level1_source, search_key, fingerprint, geom)
                SELECT printf('%016x', n), 'club', 'Town', 'Club ' || n, 'c' || n, 52, 5, 0,
                       '/home/someone/a/rather/long/path/to/the/photo/club/hub/data/of/this/country/root.level1.json',
                       'club ' || n, printf('v3-%016x%016x', n, n), MakePoint(5, 52, 4326)
                FROM seq
                """)
            try OrganizationWrites.markImported(db)
            return try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        }
        let store = try OrganizationStore(path: path)
        let after = try store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        #expect(after < before - 50, "\(before) pages before, \(after) after")
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM source_document") } == 3)
        #expect(try store.count(.all) == 3_003)
    }

    @Test("an organization read from another Level 1 file is shown with that file; a document no row refers to is dropped")
    func level1DocumentsFollowTheData() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        try store.importOrganizations(source: "first") { add in
            for organization in Self.organizations { try add(organization) }
        }
        var moved = Self.organizations
        moved[2].level1Source = "/data/moved.level1.json"
        let summary = try store.importOrganizations(source: "second") { add in
            for organization in moved { try add(organization) }
        }
        #expect(summary.unchanged == 3 && summary.changed.isEmpty)
        #expect(try store.organization(named: "fcGent").level1Source == "/data/moved.level1.json")
        #expect(try store.organization(named: "fgWaalre").level1Source == "/data/root.level1.json")
        #expect(try store.database.read { db in try String.fetchAll(db, sql: "SELECT location FROM source_document ORDER BY location") }
                == ["/data/moved.level1.json", "/data/root.level1.json"])
    }

    @Test("a long remark stays in its row (no overflow page of its own); two remarks in one language fail the import, which changes nothing")
    func remarksKeepTheirValuesInTheirRows() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        let long = String(repeating: "A remark of some length, as some organizations have. ", count: 40)  // 2,160 bytes
        let organizations = (0..<50).map { index in
            var organization = StoreFixtures.organization("Club \(index)", 51 + Double(index) / 100, 5)
            organization.remarks = [LocalizedRemark(language: "EN", value: long), LocalizedRemark(language: "NL", value: long)]
            return organization
        }
        try store.importOrganizations(source: "first") { add in
            for organization in organizations { try add(organization) }
        }
        #expect(try store.organization(named: "Club 7").remarks.map(\.value) == [long, long])
        let (overflowPages, uniqueIndex) = try store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = 'organization_remark' AND pagetype = 'overflow'"),
             try Bool.fetchOne(db, sql: "SELECT \"unique\" FROM pragma_index_list('organization_remark') WHERE name = ?",
                               arguments: [RemarkTable.index]))
        }
        #expect(overflowPages == 0)
        #expect(uniqueIndex == true)
        var twice = organizations[3]
        twice.remarks.append(LocalizedRemark(language: "EN", value: "again"))
        // Into the empty table (a bulk load: the index is made at the end) and into the full one.
        for path in [directory.path("new.sqlite"), directory.path("hub.sqlite")] {
            let target = try OrganizationStore(path: path)
            #expect(throws: (any Error).self) {
                try target.importOrganizations(source: "twice") { add in try add(twice) }
            }
            #expect(try target.count(.all) == (path.hasSuffix("hub.sqlite") ? 50 : 0))
            #expect(try target.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization_remark") }
                    == (path.hasSuffix("hub.sqlite") ? 100 : 0))
        }
    }

    @Test("a database migrated by a newer hubgeo is refused for writing, naming its migration")
    func newerDatabaseIsRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.path("hub.sqlite")
        try StoreFixtures.store(in: directory, Self.organizations).database.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9 from the future')")
        }
        #expect {
            _ = try OrganizationStore(path: path)
        } throws: { error in
            guard case StoreError.newerDatabase(_, let migrations) = error else { return false }
            return migrations == ["v9 from the future"]
        }
        #expect(try OrganizationStore(path: path, access: .readOnly).all().count == 3)
    }
}
