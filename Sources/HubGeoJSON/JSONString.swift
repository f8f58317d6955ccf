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
    static let controlEscapes: [UInt8] = (0..<32).flatMap { (byte: Int) -> [UInt8] in
        let digits = Array("0123456789ABCDEF".utf8)
        return Array("\\u00".utf8) + [digits[byte >> 4], digits[byte & 0xF]]
    }

    @inlinable @inline(__always)
    static func write(_ literal: StaticString, _ output: (UnsafeBufferPointer<UInt8>) -> Void) {
        output(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Hands `text` (UTF-8), escaped for `context` and without quotes, to `output` in runs.
    /// With `jsonText`, `text` is JSON text already (a whole document), and only the escapes of
    /// `context` are added: the characters they replace can stand only inside its strings.
    @inlinable
    package static func escape(_ text: UnsafeBufferPointer<UInt8>, for context: Context, jsonText: Bool = false,
                               into output: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard text.baseAddress != nil else { return }
        let scriptElement = context.contains(.scriptElement)
        let mask: UInt8 = (jsonText ? 0 : 1) | (context.contains(.javaScript) ? 2 : 0) | (scriptElement ? 4 : 0)
        let candidates: ByteWords.Candidates = scriptElement ? .scriptElementJSON : .json
        byteClass.withUnsafeBufferPointer { table in
            var start = 0
            var index = 0
            var wordEnd = 0  // the bytes before it are looked at one by one
            let count = text.count
            while index < count {
                if index >= wordEnd {
                    index = ByteWords.skipPlain(text, from: index, candidates)
                    if index >= count { break }
                    wordEnd = index &+ 8
                }
                let byte = text[index]
                let kind = table[Int(byte)] & mask
                if kind == 0 {
                    index &+= 1
                    continue
                }
                if kind == 2 {
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                    guard index + 2 < count, text[index + 1] == 0x80, text[index + 2] == 0xA8 || text[index + 2] == 0xA9 else {
                        index &+= 1
                        continue
                    }
                    output(UnsafeBufferPointer(rebasing: text[start..<index]))
                    text[index + 2] == 0xA8 ? write("\\u2028", output) : write("\\u2029", output)
                    index &+= 3
                    start = index
                    continue
                }
                output(UnsafeBufferPointer(rebasing: text[start..<index]))
                switch byte {
                case 0x22: write("\\\"", output)
                case 0x5C: write("\\\\", output)
                case 0x0A: write("\\n", output)
                case 0x0D: write("\\r", output)
                case 0x09: write("\\t", output)
                case 0x08: write("\\b", output)
                case 0x0C: write("\\f", output)
                case 0x26: write("\\u0026", output)
                case 0x3C: write("\\u003C", output)
                case 0x3E: write("\\u003E", output)
                default:
                    controlEscapes.withUnsafeBufferPointer { escapes in
                        output(UnsafeBufferPointer(rebasing: escapes[Int(byte) * 6..<Int(byte) * 6 + 6]))
                    }
                }
                index &+= 1
                start = index
            }
            output(UnsafeBufferPointer(rebasing: text[start..<count]))
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
