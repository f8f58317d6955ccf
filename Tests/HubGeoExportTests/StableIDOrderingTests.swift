import Foundation
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The export's reordering: records read in storage order come back in stable id order, whole,
/// whether they stayed in memory or went through the scratch file.
@Suite("Export records put in stable id order")
struct StableIDOrderingTests {
    /// Everything a record holds, comparable.
    struct Contents: Equatable {
        var fields: [[UInt8]]
        var type: OrganizationType
        var latitude: Double
        var longitude: Double
        var fotobondNumber: Int?
        var memberCount: Int?

        init(_ record: ExportRecord) {
            fields = ExportRecord.Field.allCases.map { field in
                var bytes: [UInt8] = []
                record.bytes(field) { bytes = Array($0) }
                return bytes
            }
            type = record.organizationType
            latitude = record.latitude
            longitude = record.longitude
            fotobondNumber = record.fotobondNumber
            memberCount = record.memberCount
        }
    }

    /// Random records: hex ids as hubgeo writes them, and ids of other lengths and bytes (a
    /// damaged or foreign row), sharing prefixes; fields absent, empty, long and multi-byte.
    static func randomRecords(_ count: Int, seed: UInt64) -> [ExportRecord] {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123456789abcdef".utf8) + [0, 0x7F, 0xC3, 0xA9, 0xFF]
        return (0..<count).map { index in
            var record = ExportRecord()
            let idLength = index % 7 == 0 ? Int.random(in: 0...20, using: &random) : 16
            let id = (0..<idLength).map { _ in index % 7 == 0 ? alphabet.randomElement(using: &random)! : alphabet[Int.random(in: 0..<16, using: &random)] }
            id.withUnsafeBufferPointer { record.set(.id, $0) }
            for field in ExportRecord.Field.properties where Bool.random(using: &random) {
                let length = Int.random(in: 0...(field == .remark ? 3_000 : 40), using: &random)
                let text = String(repeating: "é\"&<x", count: length / 5 + 1) + String(index)
                record.set(field, text)
            }
            record.organizationType = Bool.random(using: &random) ? .club : .museum
            record.latitude = Double.random(in: -90...90, using: &random)
            record.longitude = Double.random(in: -180...180, using: &random)
            record.fotobondNumber = Bool.random(using: &random) ? Int.random(in: Int.min...Int.max, using: &random) : nil
            record.memberCount = Bool.random(using: &random) ? Int.random(in: 0...500, using: &random) : nil
            return record
        }
    }

    /// SQLite's BINARY order (memcmp, then the shorter first); the order of adding between equals.
    static func bytewise(_ records: [ExportRecord]) -> [Contents] {
        records.map(Contents.init).enumerated().sorted { a, b in
            let (x, y) = (a.element.fields[0], b.element.fields[0])
            return x.lexicographicallyPrecedes(y) || (x == y && a.offset < b.offset)
        }.map(\.element)
    }

    /// In memory, through many small runs, and through runs of records larger than the window
    /// a run is read through (a remark of 100 kB).
    @Test(arguments: [(budget: 64 << 20, runs: 0...0), (budget: 2_000, runs: 200...3_000),
                      (budget: 300_000, runs: 2...20)])
    func recordsComeBackWholeInStableIDOrder(budget: Int, runs: ClosedRange<Int>) throws {
        let directory = try TemporaryDirectory()
        var records = Self.randomRecords(3_000, seed: 5)
        for index in stride(from: 0, to: records.count, by: 500) {
            records[index].set(.remark, String(repeating: "ë<&", count: 34_000))
        }
        var ordering = StableIDOrdering(scratchDirectory: directory.url.path, memoryBudget: budget)
        for record in records { try ordering.add(record) }
        #expect(runs.contains(ordering.runCount))
        // The scratch file has no name from the start: nothing to leave behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        var drained: [Contents] = []
        try ordering.drain { drained.append(Contents($0)) }
        #expect(ordering.count == records.count)
        #expect(drained == Self.bytewise(records))
    }

    /// Ids that all share their first bytes (as in a database filled by hand) sort as well.
    @Test func idsAlikeInTheirFirstBytes() throws {
        let directory = try TemporaryDirectory()
        let records = (0..<2_000).map { index in
            var record = ExportRecord()
            record.set(.id, String(format: "%016x", (index * 7_919) % 2_000))
            record.set(.name, "Organization \(index)")
            return record
        }
        var ordering = StableIDOrdering(scratchDirectory: directory.url.path, memoryBudget: 5_000)
        for record in records { try ordering.add(record) }
        #expect(ordering.runCount > 10)
        var drained: [Contents] = []
        try ordering.drain { drained.append(Contents($0)) }
        #expect(drained == Self.bytewise(records))
    }

    @Test func aScratchDirectoryThatCannotBeWrittenIsNamedInTheError() throws {
        var ordering = StableIDOrdering(scratchDirectory: "/nonexistent-hubgeo-scratch", memoryBudget: 100)
        #expect {
            for record in Self.randomRecords(50, seed: 1) { try ordering.add(record) }
        } throws: { error in
            "\(error)" == "cannot create a scratch file in /nonexistent-hubgeo-scratch: No such file or directory"
        }
    }

    /// The whole-table export (read in storage order, then ordered) gives the records that the
    /// walk of the stable id index gives (asked for with a limit, which keeps that walk).
    @Test func aWholeTableExportEqualsTheWalkOfTheStableIDIndex() throws {
        let directory = try TestPaths.temporaryDirectory()
        // Organizations added in an order unrelated to their stable ids, some with remarks.
        let organizations = StoreFixtures.randomOrganizations(count: 1_200, seed: 3).enumerated().map { index, organization in
            var organization = organization
            if index % 2 == 0 { organization.remarks.append(LocalizedRemark(language: "en", value: "English \(index) \"&<")) }
            if index % 3 == 0 { organization.remarks.append(LocalizedRemark(language: "nl", value: "Nederlands \(index)")) }
            return organization
        }
        let store = try StoreFixtures.store(in: directory, organizations)
        for (selection, filter) in [(OrganizationSelection.all, OrganizationFilter()), (.all, .init(type: .museum)), (.search("org 1"), .init())] {
            var ordered: [Contents] = []
            let count = try store.forEachOrderedExportRecord(selection, filter: filter, order: .stableID, remarkLanguage: "nl") { ordered.append(Contents($0)) }
            var paged = filter
            paged.limit = Int.max
            var walked: [Contents] = []
            _ = try store.forEachExportRecord(selection, filter: paged, order: .stableID, remarkLanguage: "nl") { walked.append(Contents($0)) }
            #expect(count == walked.count && !walked.isEmpty)
            #expect(ordered == walked, "\(selection) \(filter)")
        }
    }
}
