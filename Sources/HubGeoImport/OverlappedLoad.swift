import Foundation
import HubGeoModel
import HubGeoReader

/// Runs a streaming load (``HubLoader/load(root:level2Files:each:)``) on a thread of its own
/// while the calling thread takes its organizations, in the same order, in batches through a
/// bounded queue: the parsing of one batch overlaps the writing of the one before (`Importer`,
/// where the writer, the SQLite connection, stays on the calling thread).
///
/// - A load that fails stops the caller at its next batch with the load's error (the error
///   the load threw, naming the file and JSON path); the batches still queued are dropped.
/// - A caller that fails (a full disk, a constraint, an interruption) stops the load when it
///   next fills a batch (its `each` throws; clubs held back for their Level 2 files are handed on
///   only at the end of the walk, so a tree of nothing else is read to its end first), and the
///   call returns or throws only once the load has ended: no reading runs on after it (the
///   thread has only to exit).
/// - At most ``capacity`` batches of ``batchSize`` organizations wait, so memory stays bounded
///   whatever the tree's size.
struct OverlappedLoad {
    /// The organizations handed over at once: few enough to keep the queue small, many enough
    /// that the lock and the wake-ups cost nothing next to parsing and writing them.
    var batchSize = 256
    /// The batches that may wait for the caller.
    var capacity = 4

    /// Runs `load` on a new thread, handing what it gives its `each`, made into an `Item` by
    /// `prepare` on that thread, to `each` on this thread. Returns what `load` returned; throws the
    /// load's error, or `each`'s.
    func run<Item: Sendable>(_ load: @escaping @Sendable (_ each: (Organization) throws -> Void) throws -> LoadSummary,
                             prepare: @escaping @Sendable (Organization) -> Item,
                             each: (Item) throws -> Void) throws -> LoadSummary {
        let queue = Queue<Item>(capacity: capacity)
        let batchSize = batchSize
        let thread = Thread {
            let result = Result {
                var batch: [Item] = []
                batch.reserveCapacity(batchSize)
                let summary = try load { organization in
                    // SIGINT or SIGTERM stop the reading too, while the writer waits for a batch.
                    try Interruption.check()
                    batch.append(prepare(organization))
                    if batch.count == batchSize {
                        try queue.put(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try queue.put(batch) }
                return summary
            }
            queue.finish(result)
        }
        // The main thread's stack size (8 MiB), not Foundation's smaller default for new threads:
        // the parser of a document that the streaming reader cannot vouch for recurses.
        thread.stackSize = 8 << 20
        thread.start()
        do {
            while let batch = try queue.take() {
                for item in batch { try each(item) }
            }
        } catch {
            queue.stop()
            _ = queue.waitForEnd()
            throw error
        }
        return try queue.waitForEnd().get()
    }

    /// Thrown to the load by `put` once the caller stopped taking batches.
    private struct Stopped: Error {}

    /// The bounded queue between the two threads, guarded by one condition.
    private final class Queue<Item: Sendable>: @unchecked Sendable {
        // @unchecked: every property is read and written with `condition` locked.
        private let condition = NSCondition()
        private let capacity: Int
        private var batches: [[Item]] = []
        private var end: Result<LoadSummary, any Error>?
        private var stopped = false

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Queues `batch`, waiting while the queue is full; throws ``Stopped`` once the caller stopped.
        func put(_ batch: [Item]) throws {
            condition.lock()
            defer { condition.unlock() }
            while batches.count >= capacity && !stopped { condition.wait() }
            if stopped { throw Stopped() }
            batches.append(batch)
            condition.broadcast()
        }

        /// The load ended (the last thing its thread does).
        func finish(_ result: Result<LoadSummary, any Error>) {
            condition.lock()
            defer { condition.unlock() }
            end = result
            condition.broadcast()
        }

        /// The next batch, or nil once the load ended and every batch was taken; throws the
        /// load's error as soon as it failed.
        func take() throws -> [Item]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && end == nil { condition.wait() }
            if case .failure(let error) = end { throw error }
            guard !batches.isEmpty else { return nil }
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }

        /// The caller takes no more batches: the load's next `put` throws.
        func stop() {
            condition.lock()
            defer { condition.unlock() }
            stopped = true
            batches.removeAll()
            condition.broadcast()
        }

        /// Waits for the load to end and returns how it ended.
        func waitForEnd() -> Result<LoadSummary, any Error> {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let end { return end }
                condition.wait()
            }
        }
    }
}
