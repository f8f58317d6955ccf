import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where hubgeo writes: results to stdout, notes and warnings to stderr.
///
/// Results that cannot be written (a full disk, an I/O error) are a failure: the first failed
/// write to stdout is remembered, later results are dropped, and ``finish()`` reports it, so
/// that `HubGeoCommand.main` exits with status 1 and the system's reason.
enum Console {
    /// The `errno` of the first failed write to stdout.
    nonisolated(unsafe) private static var writeFailure: Int32?

    static func print(_ text: String, terminator: String = "\n") {
        write(text + terminator)
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The error of the first write to stdout that failed, if any.
    static func finish() -> StandardOutputError? {
        writeFailure.map(StandardOutputError.init(code:))
    }

    /// Writes straight to file descriptor 1 (each call is one result, a table or a line), so
    /// that every failure is seen here and not lost in a buffer flushed at exit.
    private static func write(_ text: String) {
        guard writeFailure == nil else { return }
        var text = text
        text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Glibc.write(1, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    writeFailure = errno
                    return
                }
                written += result
            }
        }
    }
}

/// Results could not be written to stdout.
struct StandardOutputError: LocalizedError {
    var code: Int32

    var errorDescription: String? { "cannot write to standard output: \(String(cString: strerror(code)))" }
}
