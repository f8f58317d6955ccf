/// Text as a JSON string literal, for the JSON hubgeo writes by hand outside the exporters (a
/// JSON path's bracketed key, the tiles' metadata): `"`, `\\` and the control characters escaped,
/// everything else as it is. (The exporters' own, `ExportText.jsonString`, has a fast path for their
/// hot loop and escapes U+2028 and U+2029 for pages that embed it.)
package enum JSONStringLiteral {
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
