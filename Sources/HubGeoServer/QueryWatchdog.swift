import Foundation

/// Stops the answers that run past the request time limit: one clock for all requests in flight,
/// which cancels an answer's task once its deadline passes (its SQLite statement is interrupted and
/// its connection freed), rather than a timer task raced against every request: two tasks, a
/// timer armed and disarmed and their thread wake-ups per request, where most answers take a
/// millisecond.
final class QueryWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [Int: Entry] = [:]
    private var nextID = 0
    private var ticking = false
    /// How often the clock looks: a tenth of the limit, from 1 ms to 50 ms.
    private let tick: Duration

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var cancel: @Sendable () -> Void
        var timedOut = false
    }

    let timeout: Duration

    init(timeout: Duration) {
        self.timeout = timeout
        tick = min(.milliseconds(50), max(.milliseconds(1), timeout / 10))
    }

    /// The value of `work`, or nil when it ran past the time limit (and was cancelled). Cancelling
    /// the caller cancels `work` too.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let task = Task { try await work() }
        let id = register(deadline: .now + timeout) { task.cancel() }
        do {
            let value = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            return finish(id) ? nil : value
        } catch {
            if finish(id) { return nil }
            throw error
        }
    }

    private func register(deadline: ContinuousClock.Instant, cancel: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextID &+= 1
        running[nextID] = Entry(deadline: deadline, cancel: cancel)
        if !ticking {
            ticking = true
            Task.detached { await self.watch() }
        }
        return nextID
    }

    /// Forgets an answer; true when it had run out of time.
    private func finish(_ id: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return running.removeValue(forKey: id)?.timedOut ?? false
    }

    /// Cancels the answers past their deadline, as long as any is in flight.
    private func watch() async {
        while true {
            try? await Task.sleep(for: tick)
            let (overdue, idle) = takeOverdue(now: .now)
            for cancel in overdue { cancel() }
            if idle { return }
        }
    }

    /// Marks the answers past their deadline as timed out and returns their cancellations, and
    /// whether none is in flight (then the clock stops until the next one).
    private func takeOverdue(now: ContinuousClock.Instant) -> (overdue: [@Sendable () -> Void], idle: Bool) {
        lock.lock()
        defer { lock.unlock() }
        var overdue: [@Sendable () -> Void] = []
        for (id, entry) in running where !entry.timedOut && entry.deadline <= now {
            running[id]?.timedOut = true
            overdue.append(entry.cancel)
        }
        if running.isEmpty { ticking = false }
        return (overdue, running.isEmpty)
    }
}
