/// JSON text made safe to sit inside an HTML `<script>` element.
///
/// In JSON, `<`, `>` and `&` only occur inside strings, where `\u003c`, `\u003e` and `\u0026`
/// mean the same: so `</script>` and `<!--` in the data can neither close the element nor
/// switch the HTML parser into its "script data escaped" states. U+2028 and U+2029 are escaped
/// too, so the text is also a valid JavaScript expression.
package enum ScriptSafeJSON {
    package static func escape(_ json: String) -> String {
        var result = ""
        result.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
