#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one loop that writes a whole buffer to a descriptor: `write(2)` may write less than asked
/// (a pipe, a device, a signal mid-way) or fail with `EINTR` when a signal handler ran; both go on.
package enum WriteAll {
    /// Writes every byte of `bytes` to `descriptor`; 0 when done, else the `errno` of the write that failed.
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var written = 0
        while written < bytes.count {
            let result = systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return 0
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
