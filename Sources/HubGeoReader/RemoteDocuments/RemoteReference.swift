import Foundation

/// What a document fetched over http(s) may point to: other http(s) documents only. A remote
/// tree can never make hubgeo read a local file, nor walk out of the server's root.
enum RemoteReference {
    /// Why the include `reference`, read in the remote document at `base`, is refused (nil: allowed).
    static func refusal(_ reference: String, from base: URL) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if let scheme = URL(string: trimmed)?.scheme?.lowercased() ?? schemePrefix(trimmed) {
            guard scheme == "http" || scheme == "https" else {
                let what = scheme == "file" ? "a local file" : "a \(scheme): URL"
                return "refused include \"\(reference)\": a document fetched over http(s) may include only http(s) URLs, never \(what)"
            }
            return nil
        }
        guard !trimmed.hasPrefix("//") else { return nil }  // scheme-relative: another http(s) host
        // A relative path: its ".." (also percent-encoded) may not climb above the server's root.
        var depth = trimmed.hasPrefix("/") ? 0 : max(0, base.path.split(separator: "/").count - 1)
        let path = trimmed.split(separator: "?", maxSplits: 1).first.map(String.init) ?? trimmed
        for segment in path.split(separator: "/") {
            let decoded = segment.removingPercentEncoding ?? String(segment)
            if decoded == ".." {
                depth -= 1
                if depth < 0 {
                    return "refused include \"\(reference)\": the relative path climbs above the root of \(base.host ?? "the server")"
                }
            } else if decoded != "." {
                depth += 1
            }
        }
        return nil
    }

    /// The scheme of a reference Foundation cannot parse as a URL ("file:/etc/x y").
    private static func schemePrefix(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }
}
