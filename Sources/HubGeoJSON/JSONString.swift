/// The one JSON string escaper (RFC 8259, section 7): every JSON string hubgeo writes goes
/// through ``escape(_:for:into:)``: the exports' byte path, the JSON written by hand (map clusters,
/// tile metadata and attributes, the map page, the server's errors), the pretty JSON of
/// `--format json`, SARIF and `diff` (``PrettyJSON``), and the keys of JSON paths.
///
/// `"` and `\` are escaped, line feed, carriage return, tab, backspace and form feed as `\n`,
/// `\r`, `\t`, `\b`, `\f`, the other control characters as `\u00XX` (upper-case hex); `/` is
/// not escaped, and everything else is written as the UTF-8 it is. Where the string must also
/// be read by another syntax, a ``Context`` adds the escapes it needs.
package enum JSONString {
    /// What a JSON string must also be, besides JSON.
    package struct Context: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Plain JSON.
        package static let json: Context = []
        /// A JavaScript string literal as well: U+2028 and U+2029 as `\u2028` and `\u2029`
        /// (JavaScript before ES2019 ends a line at them). The exports and the map's answers.
        package static let javaScript = Context(rawValue: 1)
        /// The text of an HTML `<script>` element as well (implies ``javaScript``): `<`, `>` and
        /// `&` as `\u003C`, `\u003E` and `\u0026`, so that `</script>` or `<!--` in the data can
        /// neither close the element nor switch the HTML parser into its escaped states.
        package static let scriptElement = Context(rawValue: 3)
    }

    /// What each byte may need, as bits: 1 an escape in any context, 2 a look at U+2028/U+2029
    /// (``Context/javaScript``), 4 an escape in ``Context/scriptElement``.
    @usableFromInline
    static let byteClass: [UInt8] = (0..<256).map { byte in
        switch byte {
        case 0..<0x20, 0x22, 0x5C: 1
        case 0xE2: 2
        case 0x26, 0x3C, 0x3E: 4
        default: 0
        }
    }

    /// `\u0000` ... `\u001F`, six bytes each.
    @usableFromInline
    static let controlEscapes: StaticString = "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\u0008\\u0009\\u000A\\u000B\\u000C\\u000D\\u000E\\u000F\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001A\\u001B\\u001C\\u001D\\u001E\\u001F"

    /// Hands `text` (UTF-8), escaped for `context` and without quotes, to `output` in runs
    /// (through ``ByteWords``' one escaping loop). With `jsonText`, `text` is JSON text already (a
    /// whole document), and only the escapes of `context` are added: the characters they replace
    /// can stand only inside its strings.
    @inlinable
    package static func escape(_ text: UnsafeBufferPointer<UInt8>, for context: Context, jsonText: Bool = false,
                               into output: (UnsafeBufferPointer<UInt8>) -> Void) {
        let scriptElement = context.contains(.scriptElement)
        let mask: UInt8 = (jsonText ? 0 : 1) | (context.contains(.javaScript) ? 2 : 0) | (scriptElement ? 4 : 0)
        let candidates: ByteWords.Candidates = scriptElement ? .scriptElementJSON : .json
        byteClass.withUnsafeBufferPointer { table in
            ByteWords.escape(text, candidates, classes: table, mask: mask, into: output) { index, kind in
                if kind == 2 {
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                    guard index + 2 < text.count, text[index + 1] == 0x80, text[index + 2] == 0xA8 || text[index + 2] == 0xA9 else {
                        return nil
                    }
                    return ByteWords.Replacement(text[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", replacing: 3)
                }
                let byte = text[index]
                switch byte {
                case 0x22: return ByteWords.Replacement("\\\"")
                case 0x5C: return ByteWords.Replacement("\\\\")
                case 0x0A: return ByteWords.Replacement("\\n")
                case 0x0D: return ByteWords.Replacement("\\r")
                case 0x09: return ByteWords.Replacement("\\t")
                case 0x08: return ByteWords.Replacement("\\b")
                case 0x0C: return ByteWords.Replacement("\\f")
                case 0x26: return ByteWords.Replacement("\\u0026")
                case 0x3C: return ByteWords.Replacement("\\u003C")
                case 0x3E: return ByteWords.Replacement("\\u003E")
                default: return ByteWords.Replacement(UnsafeBufferPointer(start: controlEscapes.utf8Start + Int(byte) * 6, count: 6))
                }
            }
        }
    }

    /// `text` as a JSON string literal, quotes included, escaped for `context`.
    package static func quoted(_ text: String, for context: Context = .json) -> String {
        var result = "\""
        append(text, for: context, to: &result)
        result += "\""
        return result
    }

    /// Appends `text` escaped for `context`, without quotes, to `result`.
    package static func append(_ text: String, for context: Context = .json, to result: inout String) {
        var text = text
        text.withUTF8 { bytes in
            escape(bytes, for: context) { run in
                result += String(decoding: UnsafeRawBufferPointer(run), as: UTF8.self)
            }
        }
    }

    /// `json`, JSON text (a whole document, as ``quoted(_:for:)`` and the writers write it), made
    /// fit for `context` as well: the map page's data inside its `<script>` elements.
    package static func adapting(json: String, to context: Context) -> String {
        var json = json
        var result = ""
        result.reserveCapacity(json.utf8.count + 64)
        json.withUTF8 { bytes in
            escape(bytes, for: context, jsonText: true) { run in
                result += String(decoding: UnsafeRawBufferPointer(run), as: UTF8.self)
            }
        }
        return result
    }
}
