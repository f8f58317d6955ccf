import CPOSIX
import Glibc

/// Complexity guards, not speed measurements (`make bench` measures speed): a test compares the
/// time of 8 times the input with that of the input, where linear work takes about 8 times as long
/// and quadratic work 64 times. The time is the thread's CPU time, so that a busy machine (other
/// tests, other builds) does not count the time the thread waited for a core: wall time on the
/// 2-core machine gave 24.5 times for linear work while builds ran.
package enum ComplexityGuard {
    /// The least CPU time of the calling thread over `runs` runs of `work`, in seconds.
    package static func fastestCPUSeconds(runs: Int = 5, _ work: () -> Void) -> Double {
        (0..<runs).map { _ in
            let start = threadCPUSeconds()
            work()
            return threadCPUSeconds() - start
        }.min()!
    }

    private static func threadCPUSeconds() -> Double {
        let time = hubgeo_clock_now(CLOCK_THREAD_CPUTIME_ID)
        return Double(time.seconds) + Double(time.nanoseconds) / 1e9
    }
}
