import Foundation
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
        let line = "\(timestamp()) \(method) \(target.prefix(300)) \(status) \(bytes.map { "\($0)B" } ?? "-") "
            + String(format: "%.1fms", milliseconds) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

/// Read-only and bounded: GET and HEAD only (405 otherwise; CONNECT: ``ConnectRefusalHandler``), request targets of at most
/// `maxURILength` bytes (414), no request body (413).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxURILength: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.error(.methodNotAllowed, APIError.methodNotAllowed.message, extra: [.allow: "GET, HEAD"])
        }
        guard request.uri.description.utf8.count <= maxURILength else {
            return Self.error(.uriTooLong, "the request target is longer than \(maxURILength) bytes")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > 0 {
            return Self.error(.contentTooLarge, "requests carry no body")
        }
        return try await next(request, context)
    }

    static func error(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: APIError(status: status.code, message: message, parameter: nil).json)))
    }
}
