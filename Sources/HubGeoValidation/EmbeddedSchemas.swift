import Foundation
import HubGeoReader

/// The JSON Schemas of `docs/schemas/` (`levelN.schema.json`), built into hubgeo byte for byte
/// for `hubgeo schema`.
package enum EmbeddedSchemas {
    /// The schema of one level, exactly as `docs/schemas/` holds it.
    package static func schema(of kind: DocumentKind) -> Data? {
        files["\(kind.rawValue).schema.json"]
    }

    private static let files: [String: Data] = {
        var result: [String: Data] = [:]
        for entry in base64Files { result[entry.name] = Data(base64Encoded: entry.base64) }
        return result
    }()
}
