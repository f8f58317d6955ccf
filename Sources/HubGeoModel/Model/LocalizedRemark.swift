import Foundation

/// A remark about an organization in one language (ISO 639-1 code, upper case as in the data).
public struct LocalizedRemark: Hashable, Sendable, Codable {
    /// The language code of the remark (`en`, `nl`, ...).
    public var language: String
    /// The remark's text.
    public var value: String

    /// A remark `value` in `language`.
    public init(language: String, value: String) {
        self.language = language
        self.value = value
    }
}

extension Array where Element == LocalizedRemark {
    /// The remark in `language`, else in English, else the first one there is.
    public func preferred(language: String?) -> LocalizedRemark? {
        if let language, let match = first(where: { $0.language.caseInsensitiveCompare(language) == .orderedSame }) {
            return match
        }
        return first(where: { $0.language.uppercased() == "EN" }) ?? first
    }
}
