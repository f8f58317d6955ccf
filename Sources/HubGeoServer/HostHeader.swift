/// The `Host` header a request may carry (RFC 9110 §7.2, RFC 3986 §3.2.2): a host name (labels of
/// letters, digits and inner hyphens), an IPv4 address or a bracketed IPv6 address, and perhaps a
/// port from 1 to 65535. Anything else, and more than one `Host`, is a 400 (RFC 9112 §3.2), so that
/// what the server writes from it (the TileJSON's tile URLs) is never a host a client made up.
enum HostHeader {
    /// True when `value` is a host with an optional port.
    static func isValid(_ value: String) -> Bool {
        var host = Substring(value)
        if let colon = value.lastIndex(of: ":"), !value[colon...].contains("]") {
            let port = value[value.index(after: colon)...]
            guard (1...5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port),
                  (1...65_535).contains(number) else { return false }
            host = value[..<colon]
        }
        return isValidHost(String(host))
    }

    /// True when `host` (without a port) is a host name, an IPv4 address or a bracketed IPv6 address.
    static func isValidHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 255 else { return false }
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast()
            return host.hasSuffix("]") && inner.filter({ $0 == ":" }).count >= 2
                && inner.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
        }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }  // the root's dot: "example.org."
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
