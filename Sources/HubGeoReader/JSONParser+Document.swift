import Foundation
import HubGeoJSON

extension JSONParser {
    /// Parses a whole Photo Club Hub document; a syntax error is a ``LoadError`` naming `file`.
    package static func parseDocument(_ data: Data, file: String) throws(LoadError) -> JSONValue {
        do {
            return try JSONParser().parse(data)
        } catch {
            throw .malformedJSON(file: file, line: error.line, column: error.column, reason: error.reason)
        }
    }
}
