import Foundation

/// The validators of the API's answers (RFC 9110, 8.8.3 and 13.1.2): a weak entity tag per
/// answer, and whether a request's `If-None-Match` holds it, so that a client asking again for
/// what it has gets a 304 without the body.
enum EntityTag {
    /// `W/"opaque"`: weak, since the same answer may be sent compressed or not.
    static func weak(_ opaque: String) -> String { "W/\"\(opaque)\"" }

    /// True when `ifNoneMatch` (a list of tags, or `*`) holds `tag` under the weak comparison
    /// that `If-None-Match` uses: the `W/` prefixes are ignored, the quoted parts compared.
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        if ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" { return true }
        let wanted = opaque(tag)
        return ifNoneMatch.split(separator: ",").contains { opaque($0.trimmingCharacters(in: .whitespaces)) == wanted }
    }

    private static func opaque(_ tag: String) -> Substring {
        var text = Substring(tag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        return text
    }
}
