import Foundation
import HTTPTypes
import Hummingbird

/// CORS (the Fetch standard) on every answer, errors and 304s included, as ``ServerSettings/cors``
/// says: `Access-Control-Allow-Origin` (`*`, or the request's origin when it is listed, with
/// `Vary: Origin` on every answer then), `ETag` exposed to scripts. A preflight (OPTIONS with
/// `Access-Control-Request-Method`) of an allowed origin learns that GET and HEAD may be sent with
/// the headers it asks for, for a day. No credentials: the answers are public and read-only.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CORSPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            // The router's own refusals (no such route) are answers too.
            response = try error.response(from: request, context: context)
        }
        if case .origins = policy {
            response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        }
        guard let allowed = policy.allowedOrigin(for: request.headers[.origin]) else { return response }
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = "ETag"
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil, response.status == .noContent {
            response.headers[.accessControlAllowMethods] = "GET, HEAD"
            // Any header the page asks for (If-None-Match, a cache directive): nothing here reads a
            // credential, so no header can be abused; names only, checked as header names.
            if let asked = request.headers[.accessControlRequestHeaders],
               asked.split(separator: ",").allSatisfy({ HTTPField.Name(String($0).trimmingCharacters(in: .whitespaces)) != nil }) {
                response.headers[.accessControlAllowHeaders] = asked
            }
            response.headers[.accessControlMaxAge] = "86400"
        }
        return response
    }
}
