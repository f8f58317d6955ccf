import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value handed to the threads of a parallel loop that only read it, or write disjoint parts
/// of what it points to (the builder's node arrays and trees are read by every thread, each
/// thread writes only its own chunk's results).
struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Loops over the processors, for the index builder and the vector tiles (package-wide).
package enum Parallel {
    /// The processors to build on: those online, at most 8.
    package static var processorCount: Int {
        max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    /// Runs `body` over `count` items split into at most `threads` contiguous chunks (none shorter
    /// than `minimumChunk`), in parallel, and returns the chunks' results in order, so that the
    /// outcome does not depend on the number of threads as long as the chunks' results are
    /// combined in order.
    package static func map<Result>(
        _ count: Int, threads: Int, minimumChunk: Int = 2048, _ body: (Range<Int>) -> Result
    ) -> [Result] {
        let chunks = max(1, min(threads, count / max(1, minimumChunk)))
        guard chunks > 1 else { return [body(0..<count)] }
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: chunks)
        results.initialize(repeating: nil)
        defer { results.deinitialize().deallocate() }
        withoutActuallyEscaping(body) { body in
            let shared = Shared((body: body, results: results))
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let range = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
                shared.value.results[chunk] = shared.value.body(range)
            }
        }
        return results.map { $0! }
    }

    /// Runs `body` for each of `count` independent jobs on up to `threads` threads.
    package static func forEach(_ count: Int, threads: Int, _ body: (Int) -> Void) {
        guard threads > 1, count > 1 else {
            for job in 0..<count { body(job) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = Shared(body)
            DispatchQueue.concurrentPerform(iterations: count) { job in shared.value(job) }
        }
    }
}
