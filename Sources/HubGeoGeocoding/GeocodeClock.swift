#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import Foundation
import HubGeoModel

/// Time for the geocoder's pacing: a monotonic clock and a way to wait. Tests inject their own.
public protocol GeocodeClock: Sendable {
    /// Monotonic seconds.
    func now() -> TimeInterval
    /// Blocks the calling thread for `seconds` (the system clock: less once the process is
    /// interrupted, see `Interruption`).
    func sleep(_ seconds: TimeInterval)
}

/// `CLOCK_MONOTONIC` and a real sleep, which ends early on SIGINT or SIGTERM (`Interruption`).
public struct SystemClock: GeocodeClock {
    /// The system's clock.
    public init() {}

    /// Seconds on a monotonic clock.
    public func now() -> TimeInterval {
        let time = hubgeo_clock_now(CLOCK_MONOTONIC)
        return TimeInterval(time.seconds) + TimeInterval(time.nanoseconds) / 1e9
    }

    /// Sleeps for `seconds`.
    public func sleep(_ seconds: TimeInterval) {
        guard seconds > 0 else { return }
        Interruption.sleep(seconds, clock: now)
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
