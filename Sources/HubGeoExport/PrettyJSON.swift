import Foundation

/// The JSON that `--format json` prints and the server's statistics: pretty, keys sorted,
/// slashes unescaped, through `JSONEncoder`, for any `Encodable` value (statistics, sources,
/// one organization, results).
package enum PrettyJSON {
    /// `value` as pretty, key-sorted JSON with unescaped slashes.
    package static func string<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
