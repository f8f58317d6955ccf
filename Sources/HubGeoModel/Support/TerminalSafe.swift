/// Text from the data as a terminal may show it. Photo Club Hub files (and the documents a
/// server sends) are not trusted: a remark holding `ESC ]0;...BEL` would retitle the window,
/// `ESC [2J` clear the screen, `ESC ]52;...` write the clipboard, `ESC [8m` hide what follows,
/// and U+202E reverse it. Everything hubgeo prints for people goes through here (the CLI's
/// `Console`); JSON, GeoJSON and KML keep the data exact with their own escaping.
///
/// The convention is Swift's string literal: an escaped character is written `\u{1B}` (its
/// scalar value in hexadecimal), and a backslash that would otherwise be read as part of an
/// escape (one followed by `u{`, by another backslash or by an escaped character) is doubled.
/// Any other backslash (`C:\Photos`) is shown as it is. What is shown can always be read back
/// to the exact text.
package enum TerminalSafe {
    /// Whether `scalar` is never shown raw: the C0 controls (tab, carriage return and escape
    /// included), DEL, the C1 controls U+0080-U+009F, and the bidirectional embeddings,
    /// overrides (U+202A-U+202E) and isolates (U+2066-U+2069), which hide or reorder text.
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || isBidirectionalControl(scalar)
    }

    /// C0, DEL and C1: the control characters (Unicode general category Cc).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
    package static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `text` with every character of ``isEscaped(_:)`` written `\u{XX}`, and the backslashes
    /// that would make that ambiguous doubled. `keepingLineFeeds`: a line feed stays a line break
    /// (text laid out in lines by hubgeo itself), else it is escaped like the others.
    package static func escaped(_ text: String, keepingLineFeeds: Bool = false) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool {
            isEscaped(scalar) && !(keepingLineFeeds && scalar == "\n")
        }
        // Fast path: most text holds nothing to escape and no backslash.
        guard text.unicodeScalars.contains(where: { escapes($0) || $0 == "\\" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if escapes(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
                continue
            }
            result.append(scalar)
            guard scalar == "\\", index + 1 < scalars.count else { continue }
            let next = scalars[index + 1]
            if next == "\\" || escapes(next) || (next == "u" && index + 2 < scalars.count && scalars[index + 2] == "{") {
                result.append("\\")
            }
        }
        return String(result)
    }

    /// The text's escaped characters, for messages: "U+001B, U+0007" (each once, in order).
    package static func escapedCharacters(in text: String, where include: (Unicode.Scalar) -> Bool = isEscaped) -> [String] {
        var seen: Set<UInt32> = []
        return text.unicodeScalars.filter { include($0) && seen.insert($0.value).inserted }.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }
}
