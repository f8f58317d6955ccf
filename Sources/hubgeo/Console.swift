import Foundation
import HubGeo
#if canImport(Glibc)
import Glibc
#endif

/// Where hubgeo writes: results to stdout, notes and warnings to stderr.
///
/// Text for people (tables, pages, summaries, diagnostics, errors) goes through ``print(_:terminator:)``
/// and ``note(_:)``, which show what the data may hold escaped (``TerminalSafe``: control
/// characters as `\u{1B}`; line feeds stay line breaks). Machine formats (JSON, GeoJSON), exact
/// by their own escaping, go through ``printVerbatim(_:terminator:)``.
///
/// Results that cannot be written (a full disk, an I/O error) are a failure: the first failed
/// write to stdout is remembered, later results are dropped, and ``finish()`` reports it, so
/// that `HubGeoCommand.main` exits with status 1 and the system's reason.
enum Console {
    /// The `errno` of the first failed write to stdout.
    nonisolated(unsafe) private static var writeFailure: Int32?

    /// Text for people, to stdout, with the data's control characters escaped.
    static func print(_ text: String, terminator: String = "\n") {
        write(TerminalSafe.escaped(text, keepingLineFeeds: true) + terminator)
    }

    /// JSON or GeoJSON, to stdout, exactly as given.
    static func printVerbatim(_ text: String, terminator: String = "\n") {
        write(text + terminator)
    }

    /// A note, warning or error for people, to stderr, with the data's control characters escaped.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((TerminalSafe.escaped(text, keepingLineFeeds: true) + "\n").utf8))
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
