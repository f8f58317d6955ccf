import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoImport
import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

/// The row decoders in process (so that they also run under AddressSanitizer, `make test-asan`):
/// a value of the wrong type or out of range in any column of an organization is refused by the
/// query decoder and the export's byte path with the column's name, and found by the import's
/// ``OrganizationRow/damagedRowsSQL``, and the map's rows (tiles) refuse it the same way: the three forms of ``OrganizationRow/Kind`` agree.
@Suite("Damaged rows in process")
struct DamagedRowDecodingTests {
    /// Bad values for each kind of column (NOT NULL holds even past the CHECKs: no NULL for text here).
    static func badValues(_ kind: OrganizationRow.Kind) -> [String] {
        switch kind {
        case .integer: ["'yes'", "1.5", "x'01'"]
        case .text, .optionalText: ["x'6869'"]  // a number becomes text in a TEXT column
        case .optionalInteger: ["'many'", "2.5"]
        case .type: ["'shop'", "x'636c7562'"]
        case .latitude: ["1e9", "9e999", "-9e999", "'north'", "x'00'", "-90.5"]
        case .longitude: ["180.5", "'east'"]
        }
    }

    /// The columns a map's row (tiles, clusters) reads.
    static let mapColumns: Set<OrganizationRow.Column> = [.stableID, .fullName, .nickName, .type, .town, .latitude, .longitude]

    /// The SQL that puts `value` in column `column` of organization row 1. A Level 1 path is its
    /// document's (table `source_document`): row 1 then refers to a document of its own holding `value`.
    static func damage(_ column: OrganizationRow.Column, _ value: String) -> String {
        column == .level1Source
            ? "INSERT INTO source_document (id, location) VALUES (999, \(value)); UPDATE organization SET level1_document = 999 WHERE id = 1"
            : "UPDATE organization SET \(column.name) = \(value) WHERE id = 1"
    }

    /// The message of the error `body` throws; "" when it throws none.
    static func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch {
            return error.localizedDescription
        }
    }

    @Test func everyColumnOfEveryKindIsChecked() throws {
        let directory = try TestPaths.temporaryDirectory()
        let clean = directory.path("clean.sqlite")
        _ = try Importer(reader: DocumentReader(remoteFetch: nil)).run(root: .embedded(EmbeddedData.rootName), database: clean)
        var cases = 0
        for column in OrganizationRow.Column.allCases where column != .id {
            for value in Self.badValues(column.kind) {
                let path = directory.path("damaged-\(cases).sqlite")
                cases += 1
                try FileManager.default.copyItem(atPath: clean, toPath: path)
                try DatabaseQueue(path: path).writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                    try db.execute(sql: Self.damage(column, value))
                    #expect(try Int64.fetchAll(db, sql: OrganizationRow.damagedRowsSQL) == [1], "\(column.name) = \(value)")
                }
                let store = try OrganizationStore(path: path, access: .readOnly)
                let expected = "\(path): the database is damaged: organization row 1: \(column.name) holds "
                #expect(Self.message { _ = try store.all() }.contains(expected), "\(column.name) = \(value)")
                if column.rawValue <= OrganizationRow.Column.memberCount.rawValue {
                    let message = Self.message {
                        _ = try store.forEachExportRecord(.all, filter: .init(), order: .stableID, remarkLanguage: nil) { _ in }
                    }
                    #expect(message.contains(expected), "export: \(column.name) = \(value): \(message)")
                }
                if Self.mapColumns.contains(column) {
                    let walked = Self.message { try store.forEachMapRow(.all, filter: .init()) { _ in } }
                    #expect(walked.contains(expected), "map rows: \(column.name) = \(value): \(walked)")
                    let listed = Self.message { _ = try store.mapRows(ids: [1], localization: nil) }
                    #expect(listed.contains(expected), "a tile's rows: \(column.name) = \(value): \(listed)")
                }
            }
        }
        #expect(cases == 27)
        // What the row stores instead of a path or a fingerprint: a document reference that is not
        // an integer or refers to no document (read as no path), digests that are not integers.
        for (index, damage) in ["level1_document = 'yes'", "level1_document = 12345", "level1_document = NULL",
                                "content_digest = 'v3-0'", "sources_digest = NULL"].enumerated() {
            let path = directory.path("stored-\(index).sqlite")
            try FileManager.default.copyItem(atPath: clean, toPath: path)
            try DatabaseQueue(path: path).writeWithoutTransaction { db in
                try db.execute(sql: "UPDATE organization SET \(damage) WHERE id = 1")
                #expect(try Int64.fetchAll(db, sql: OrganizationRow.damagedRowsSQL) == [1], "\(damage)")
            }
            if damage.hasPrefix("level1_document") {
                let message = Self.message { _ = try OrganizationStore(path: path, access: .readOnly).all() }
                #expect(message.contains("\(path): the database is damaged: organization row 1: level1_source holds NULL"), "\(damage): \(message)")
            }
        }
        // The clean database has nothing to find.
        let rows = try DatabaseQueue(path: clean).read { db in try Int64.fetchAll(db, sql: OrganizationRow.damagedRowsSQL) }
        #expect(rows.isEmpty)
        #expect(try OrganizationStore(path: clean, access: .readOnly).all().count == 131)
    }
}
