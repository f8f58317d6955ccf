import HubGeoDatabase
import HubGeoJSON
import HubGeoModel
/// Text encodings the exporters share: JSON strings, XML text and coordinates.
package enum ExportText {
    /// `text` as a JSON string literal for JavaScript too (``JSONString``, the one escaper).
    package static func jsonString(_ text: String) -> String {
        JSONString.quoted(text, for: .javaScript)
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
