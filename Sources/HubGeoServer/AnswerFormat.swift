/// What the server answers a request with: GeoJSON and JSON (the API, TileJSON), the map page,
/// or a vector tile. The one answer pipeline (``MapServer/answer(_:format:variant:_:)``) writes
/// each body with its media type and compresses it as ``GzipEncoding`` says for that format.
enum AnswerFormat: Sendable {
    case geoJSON
    case json
    case html
    case vectorTile

    /// The `Content-Type` of the answer (text in UTF-8).
    var contentType: String {
        switch self {
        case .geoJSON: "application/geo+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        case .vectorTile: "application/vnd.mapbox-vector-tile"
        }
    }

    /// A tile with nothing in it is a 204 (what tile servers answer, and MapLibre expects);
    /// an empty text is never an answer.
    var emptyIsNoContent: Bool { self == .vectorTile }
}
