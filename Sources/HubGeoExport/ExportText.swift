/// Text encodings the exporters share: JSON strings, XML text and coordinates.
package enum ExportText {
    /// `text` as a JSON string literal (RFC 8259), quotes included: `"` and `\` escaped,
    /// control characters as `\n`, `\t`, ... or `\u00XX`, and U+2028/U+2029 as `\u2028`/`\u2029`
    /// so that the output is also valid JavaScript. Everything else is written as UTF-8.
    package static func jsonString(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        appendJSONString(text, to: &result)
        result += "\""
        return result
    }

    static func appendJSONString(_ text: String, to result: inout String) {
        // Fast path: nothing to escape.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) {
            result += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// `text` escaped for XML 1.0 element content or a quoted attribute value: `&`, `<`, `>`,
    /// `"` and `'` as entities; tab, line feed and carriage return as character references
    /// (so that attribute normalization and line-end handling keep them); characters XML 1.0
    /// cannot carry at all (other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
    package static func xmlEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        appendXMLEscaped(text, to: &result)
        return result
    }

    static func appendXMLEscaped(_ text: String, to result: inout String) {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0xEF }) {
            result += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default:
                if scalar.value < 0x20 {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// A coordinate in degrees with at most 7 decimals (about 1 cm), trailing zeros removed,
    /// never in exponent notation and never `-0`.
    package static func coordinate(_ value: Double) -> String {
        precondition(value.isFinite && abs(value) <= 1_000, "coordinate out of range: \(value)")
        let scaled = Int64((value * 10_000_000).rounded())
        if scaled == 0 { return "0" }
        let magnitude = scaled.magnitude
        let whole = magnitude / 10_000_000
        var fraction = magnitude % 10_000_000
        var text = (scaled < 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 7
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    /// The value `coordinate(_:)` writes, as a number.
    package static func roundedCoordinate(_ value: Double) -> Double {
        let scaled = (value * 10_000_000).rounded()
        return scaled == 0 ? 0 : scaled / 10_000_000
    }
}
