import HubGeo

/// A request the API refuses: its status and a JSON body `{"error": ..., "parameter": ...}`.
struct APIError: Error, Sendable {
    var status: Int
    var message: String
    var parameter: String?

    static func badParameter(_ name: String, _ message: String) -> APIError {
        APIError(status: 400, message: message, parameter: name)
    }

    /// Any method but GET and HEAD.
    static let methodNotAllowed = APIError(status: 405, message: "this server is read-only: GET and HEAD only", parameter: nil)

    var json: String {
        var text = "{\"error\":\(JSONString.quoted(message, for: .javaScript))"
        if let parameter { text += ",\"parameter\":\(JSONString.quoted(parameter, for: .javaScript))" }
        return text + "}\n"
    }
}
