import Foundation

/// URLs as hubgeo shows and stores them: without the user and password a URL may carry.
/// `https://user:pass@example.org/x.level1.json` reads `https://***@example.org/x.level1.json` in
/// every table, JSON output, message and diagnostic, and is stored so (the document cache's key,
/// an import's source, an organization's Level 1 file). Only the request itself uses the
/// credentials: libcurl sends them as Basic authentication.
package enum URLRedaction {
    /// `text` with the user information of its authority replaced by `***`; text that is not a
    /// URL with user information comes back unchanged, byte for byte.
    package static func redacted(_ text: String) -> String {
        guard let separator = text.range(of: "://"), isScheme(text[..<separator.lowerBound]) else { return text }
        let authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<separator.upperBound]) + "***" + String(text[at...])
    }

    /// The URL's text, redacted.
    package static func redacted(_ url: URL) -> String {
        redacted(url.absoluteString)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
