import CPOSIX
import Foundation
import Glibc
import HTTPTypes
import HubGeo
import Hummingbird
import NIOCore

/// One line per request on stderr: time, method, target, status, bytes, milliseconds.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var status = 500
        var bytes: Int?
        defer {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            RequestLog.write(method: request.method.rawValue, target: request.uri.description, status: status, bytes: bytes,
                             milliseconds: milliseconds)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            bytes = response.headers[.contentLength].flatMap(Int.init)
            return response
        } catch let error as HTTPResponseError {
            status = error.status.code
            throw error
        }
    }

}

/// The request log on stderr: one line per request.
enum RequestLog {
    static func write(method: String, target: String, status: Int, bytes: Int?, milliseconds: Double) {
        let tenths = Int((milliseconds * 10).rounded())
        let line = "\(timestamp()) \(method) \(target.prefix(300)) \(status) \(bytes.map { "\($0)B" } ?? "-") "
            + "\(tenths / 10).\(tenths % 10)ms\n"
        writeLine(line)
    }

    /// Writes one line of the log (ending in a newline) to stderr. It quotes what clients sent (the
    /// request target, a cause naming the data): text from outside never reaches the terminal raw
    /// (``TerminalSafe``), and in GitHub Actions no line of it is a workflow command
    /// (``WorkflowCommandSafe``).
    static func writeLine(_ line: String) {
        var text = TerminalSafe.escaped(String(line.dropLast(line.hasSuffix("\n") ? 1 : 0)))
        if isActionsLog { text = WorkflowCommandSafe.logLine(text) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static let isActionsLog = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

    /// The time now as RFC 3339 in UTC with milliseconds (`2026-11-22T20:13:15.042Z`), formatted by
    /// hand: a date formatter made per line cost more than the rest of a small request.
    static func timestamp() -> String {
        let now = hubgeo_clock_now(CLOCK_REALTIME)
        let parts = hubgeo_utc_calendar(now.seconds)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.nanoseconds / 1_000_000)
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):"
            + "\(two(parts.second)).\(fraction)Z"
    }
}

/// Read-only and bounded: GET, HEAD and OPTIONS only (405 otherwise; CONNECT: ``ConnectRefusalHandler``),
/// request targets of at most `maxURILength` bytes (414), no request body, by Content-Length or
/// chunked (413), one well-formed `Host` (400, RFC 9112 §3.2: ``HostHeader``). OPTIONS is answered
/// here, with the methods (``CORSMiddleware`` adds what a preflight asks).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxURILength: Int

    /// The methods this server answers.
    static var allowedMethods: String { "GET, HEAD, OPTIONS" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head || request.method == .options else {
            return Self.error(.methodNotAllowed, APIError.methodNotAllowed.message, extra: [.allow: Self.allowedMethods])
        }
        guard request.uri.description.utf8.count <= maxURILength else {
            return Self.error(.uriTooLong, "the request target is longer than \(maxURILength) bytes")
        }
        // A body announced by its length, or sent in chunks (Transfer-Encoding): either way a body.
        if request.headers[.contentLength].flatMap(Int.init).map({ $0 > 0 }) ?? false || request.headers[.transferEncoding] != nil {
            return Self.error(.contentTooLarge, "requests carry no body")
        }
        // HTTP/1 gives the first Host as the authority and leaves any other among the fields.
        if request.head.authority != nil && request.headers[Self.host] != nil || request.headers[values: Self.host].count > 1 {
            return Self.error(.badRequest, "the request names more than one host (two Host headers, or a Host that differs from "
                              + "the host of its absolute target)")
        }
        if let host = request.head.authority ?? request.headers[Self.host], host.isEmpty {
            return Self.error(.badRequest, "an HTTP/1.1 request names its host in a Host header (RFC 9112 §3.2); this one has none")
        }
        if let host = request.head.authority ?? request.headers[Self.host], !HostHeader.isValid(host) {
            return Self.error(.badRequest, "the Host header \"\(host.prefix(300))\" is not a host name or address with an optional port")
        }
        if request.method == .options {
            return Response(status: .noContent, headers: [.allow: Self.allowedMethods])
        }
        return try await next(request, context)
    }

    static var host: HTTPField.Name { HTTPField.Name("Host")! }

    static func error(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: APIError(status: status.code, message: message, parameter: nil).json)))
    }
}
