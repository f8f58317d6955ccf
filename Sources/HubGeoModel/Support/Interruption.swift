import CPOSIX
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process-wide request to stop: Ctrl-C (SIGINT) or SIGTERM, once ``installSignalHandlers()``
/// ran. One flag, set by the signal handler and read wherever hubgeo could wait for the network:
/// ``CurlClient`` sends no request once it is set and aborts the transfer in flight (libcurl's
/// progress callback), ``SystemClock``'s sleeps (pacing, backoff, `Retry-After`) end early,
/// ``NominatimClient`` makes no retry, ``Localizer`` stops (its answers are already committed) and
/// ``Importer`` rolls back. A second signal ends the process at once.
package enum Interruption {
    /// Set once by the first signal; only ever read and exchanged (lock-free, so safe in a handler).
    private static let flag = Atomic<Bool>(false)

    /// True once SIGINT or SIGTERM arrived.
    package static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Throws ``Interrupted`` once SIGINT or SIGTERM arrived.
    package static func check() throws(Interrupted) {
        if isRequested { throw Interrupted() }
    }

    /// Makes SIGINT and SIGTERM set the flag (the first) or end the process with status
    /// 128 + the signal (the second, after removing the ``TemporaryFiles``), and unblocks them in the calling thread (a parent may have
    /// blocked them). Installed without `SA_RESTART`, so a wait in `poll` or `nanosleep` on this
    /// thread returns at once.
    package static func installSignalHandlers() {
        _ = isRequested  // initializes the flag here, never first in the handler
        TemporaryFiles.prepareForSignals()
        for signal in [SIGINT, SIGTERM] {
            hubgeo_signal_handle(signal, { signal in
                guard Interruption.flag.exchange(true, ordering: .relaxed) else { return }
                TemporaryFiles.removeAll()
                _exit(128 + signal)
            }, false)
        }
        hubgeo_signals_unblock([SIGINT, SIGTERM], 2)
    }

    /// Sleeps `seconds`, in short steps, returning early once the flag is set.
    package static func sleep(_ seconds: TimeInterval, clock: () -> TimeInterval) {
        let deadline = clock() + seconds
        while !isRequested {
            let left = min(deadline - clock(), pollInterval)
            if left <= 0 { return }
            _ = hubgeo_sleep(Int64(left), Int64((left - left.rounded(.down)) * 1e9))  // EINTR (the signal): the loop sees the flag
        }
    }

    /// The longest a wait goes without looking at the flag (a signal delivered to another thread
    /// does not interrupt this one's `nanosleep`).
    static let pollInterval: TimeInterval = 0.05
}

/// Work stopped by SIGINT or SIGTERM (see ``Interruption``).
package struct Interrupted: LocalizedError, Sendable, Equatable {
    package init() {}

    package var errorDescription: String? { "interrupted (SIGINT or SIGTERM)" }
}
