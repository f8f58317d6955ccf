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
///
/// In a GitHub Actions log (``isGitHubLog``) the runner acts on workflow commands in what a
/// step prints, stdout and stderr: every line for people then goes through
/// ``WorkflowCommandSafe/logLine(_:)``, and verbatim JSON has each `##[` written `#\u0023[`.
/// The lines of `--format github` are made safe where they are made (`GitHubAnnotations`).
enum Console {
    /// The `errno` of the first failed write to stdout.
    nonisolated(unsafe) private static var writeFailure: Int32?

    /// Whether the output goes to a GitHub Actions log: `GITHUB_ACTIONS=true`, or a command's
    /// `--format github` (which sets it).
    nonisolated(unsafe) static var isGitHubLog = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

    /// Text for people, to stdout, with the data's control characters escaped.
    static func print(_ text: String, terminator: String = "\n") {
        write(forPeople(text) + terminator)
    }

    /// JSON or GeoJSON, to stdout, exactly as given (in a GitHub Actions log, `##[` as `#\u0023[`,
    /// the same JSON), or lines made for the log.
    static func printVerbatim(_ text: String, terminator: String = "\n") {
        write((isGitHubLog ? WorkflowCommandSafe.escapedMarkers(json: text) : text) + terminator)
    }

    /// A note, warning or error for people, to stderr, with the data's control characters escaped.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((forPeople(text) + "\n").utf8))
    }

    /// `text` with the data's control characters escaped, line feeds kept; in a GitHub Actions
    /// log, no line of it a workflow command.
    private static func forPeople(_ text: String) -> String {
        let safe = TerminalSafe.escaped(text, keepingLineFeeds: true)
        guard isGitHubLog else { return safe }
        return safe.split(separator: "\n", omittingEmptySubsequences: false).map { WorkflowCommandSafe.logLine(String($0)) }
            .joined(separator: "\n")
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
            let failure = WriteAll.write(UnsafeRawBufferPointer(bytes), to: 1)
            if failure != 0 { writeFailure = failure }
        }
    }
}

/// Results could not be written to stdout.
struct StandardOutputError: LocalizedError {
    var code: Int32

    var errorDescription: String? { "cannot write to standard output: \(String(cString: strerror(code)))" }
}
