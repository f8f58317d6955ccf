import Foundation
@testable import HubGeoImport
import HubGeoModel
import HubGeoReader
import HubGeoTestSupport
import Synchronization
import Testing

/// The hand-over between the reading thread and the writing one (`OverlappedLoad`): the order is
/// the load's, each side's failure stops the other, and the call ends only once the load ended.
@Suite("an overlapped load hands over in order, and either side's failure stops both")
struct OverlappedLoadTests {
    struct WriterFailed: Error {}

    /// The organizations a load gave so far (written by its thread, read by the test's).
    final class Given: Sendable {
        let count = Atomic<Int>(0)
    }

    /// A load that gives `count` numbered organizations (throwing `failure` after `failAfter`
    /// of them), counting those it gave in `given`.
    static func load(count: Int, given: Given, failAfter: Int? = nil,
                     failure: LoadError = .unreadable(file: "last.level1.json", reason: "bad JSON"))
        -> @Sendable ((Organization) throws -> Void) throws -> LoadSummary {
        { [given] each in
            for index in 0..<count {
                if index == failAfter { throw failure }
                try each(ExportFixtures.plainOrganization(index, latitude: 51, longitude: 5))
                given.count.add(1, ordering: .relaxed)
            }
            return LoadSummary(source: "numbered")
        }
    }

    @Test("every organization arrives once, in the load's order, and the load's summary is returned")
    func order() throws {
        let given = Given()
        var names: [String] = []
        let summary = try OverlappedLoad(batchSize: 7, capacity: 2).run(Self.load(count: 10_000, given: given), prepare: \.fullName) {
            names.append($0)
        }
        #expect(names == (0..<10_000).map { "Organization \($0)" })
        #expect(summary.source == "numbered")
    }

    @Test("a load that fails stops the writer with the load's own error")
    func readerFailure() throws {
        let given = Given()
        var written = 0
        #expect {
            try OverlappedLoad(batchSize: 64, capacity: 2).run(Self.load(count: 100_000, given: given, failAfter: 5_000), prepare: { $0 }) { _ in
                written += 1
            }
        } throws: { error in
            guard case LoadError.unreadable(let file, let reason) = error else { return false }
            return file == "last.level1.json" && reason == "bad JSON"
        }
        #expect(written <= 5_000)
    }

    @Test("a writer that fails stops the load at its next batch, and the call returns after the load ended")
    func writerFailure() throws {
        let given = Given()
        let (batchSize, capacity) = (64, 2)
        var written = 0
        // Without the stop, the load would hand over all of its ten million organizations.
        #expect(throws: WriterFailed.self) {
            try OverlappedLoad(batchSize: batchSize, capacity: capacity).run(Self.load(count: 10_000_000, given: given), prepare: { $0 }) { _ in
                written += 1
                if written == 1_000 { throw WriterFailed() }
            }
        }
        // At most the batches queued, the one taken and the one being filled went past the failure.
        let givenAtReturn = given.count.load(ordering: .relaxed)
        #expect(givenAtReturn <= 1_000 + (capacity + 2) * batchSize)
        // The load ended before the call returned: nothing is given any more.
        #expect(given.count.load(ordering: .relaxed) == givenAtReturn)
    }
}
