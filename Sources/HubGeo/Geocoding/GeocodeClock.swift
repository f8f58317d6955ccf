import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Time for the geocoder's pacing: a monotonic clock and a way to wait. Tests inject their own.
public protocol GeocodeClock: Sendable {
    /// Monotonic seconds.
    func now() -> TimeInterval
    /// Blocks the calling thread for `seconds`.
    func sleep(_ seconds: TimeInterval)
}

/// `CLOCK_MONOTONIC` and a real sleep.
public struct SystemClock: GeocodeClock {
    public init() {}

    public func now() -> TimeInterval {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1e9
    }

    public func sleep(_ seconds: TimeInterval) {
        guard seconds > 0 else { return }
        let deadline = now() + seconds
        while true {
            // At most a day per nanosleep: any wait, however long, converts to a timespec.
            let left = min(deadline - now(), 86_400)
            if left <= 0 { return }
            var spec = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
            _ = nanosleep(&spec, nil) // EINTR: loop and sleep the rest
        }
    }
}

/// Spaces requests so that each starts at least `interval` after the previous one *ended*, and
/// never before a server-given "not before" time (`Retry-After`). Counting from the end rather
/// than the start means the server, whose clock sees a request only after it was sent, can never
/// measure two requests closer than `interval`, whatever the network or scheduling jitter.
/// One limiter per client: requests are never parallel.
final class RateLimiter {
    let interval: TimeInterval
    private let clock: any GeocodeClock
    private var lastEnd: TimeInterval?
    private var notBefore: TimeInterval = 0

    init(interval: TimeInterval, clock: any GeocodeClock) {
        self.interval = interval
        self.clock = clock
    }

    /// Waits until the next request may start.
    func waitForTurn() {
        var earliest = notBefore
        if let lastEnd { earliest = max(earliest, lastEnd + interval) }
        let wait = earliest - clock.now()
        if wait > 0 { clock.sleep(wait) }
    }

    /// Records that a request (answered or failed) has just ended.
    func requestEnded() {
        lastEnd = clock.now()
    }

    /// No request before `seconds` from now (on top of the interval).
    func holdOff(_ seconds: TimeInterval) {
        notBefore = max(notBefore, clock.now() + seconds)
    }
}
