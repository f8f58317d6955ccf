import Foundation

/// Waiting on a condition instead of sleeping for a guessed time: the condition is checked every few
/// milliseconds until it holds or the deadline passes, and a missed deadline fails with what was awaited.
package enum Waiting {
    package struct TimedOut: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns once `condition` holds; throws ``TimedOut`` naming `what` when it does not within `timeout` seconds.
    package static func until(_ what: @autoclosure () -> String, timeout: TimeInterval = 60,
                              _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                throw TimedOut(description: "waited \(timeout) s for \(what())")
            }
            usleep(5_000)
        }
    }

    /// Waits for `process` to exit; false when it still runs after `timeout` seconds (it is left running).
    package static func exit(of process: Process, timeout: TimeInterval) -> Bool {
        (try? until("exit", timeout: timeout) { !process.isRunning }) != nil
    }
}
