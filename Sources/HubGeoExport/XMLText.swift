import HubGeoJSON

/// The one XML escaper, for XML 1.0 element content and quoted attribute values: the KML export's
/// byte path (``UTF8Buffer/append(xmlEscaped:html:breaks:)``), its document name and styles, and
/// the map page's title and notes.
///
/// `&`, `<`, `>`, `"` and `'` become entities; tab, line feed and carriage return character
/// references (so that attribute normalization and line-end handling keep them); characters
/// XML 1.0 cannot carry at all (the other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
///
/// With `html`, the text is HTML inside XML text (KML's balloon `description`): each value is
/// HTML-escaped (`'` as `&#39;`) and that HTML XML-escaped, in the same single pass (`&` is written
/// `&amp;amp;`); with `breaks`, a line feed becomes the HTML `<br/>` (`&lt;br/&gt;`).
enum XMLText {
    /// What each byte needs: 0 nothing, 1 an escape, 2 a look at U+FFFE/U+FFFF.
    private static let byteClass: [UInt8] = (0..<256).map { byte in
        byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 ? 1 : byte == 0xEF ? 2 : 0
    }

    @inline(__always)
    private static func write(_ literal: StaticString, _ output: (UnsafeBufferPointer<UInt8>) -> Void) {
        output(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Hands `text` (UTF-8), escaped, to `output` in runs.
    @inline(__always)
    static func escape(_ text: UnsafeBufferPointer<UInt8>, html: Bool = false, breaks: Bool = false,
                       into output: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard text.baseAddress != nil else { return }
        byteClass.withUnsafeBufferPointer { table in
            var start = 0
            var index = 0
            var wordEnd = 0  // the bytes before it are looked at one by one
            let count = text.count
            while index < count {
                if index >= wordEnd {
                    index = ByteWords.skipPlain(text, from: index, .xml)
                    if index >= count { break }
                    wordEnd = index &+ 8
                }
                let byte = text[index]
                let kind = table[Int(byte)]
                if kind == 0 {
                    index += 1
                    continue
                }
                if kind == 2 {
                    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) become U+FFFD.
                    guard index + 2 < count, text[index + 1] == 0xBF, text[index + 2] == 0xBE || text[index + 2] == 0xBF else {
                        index += 1
                        continue
                    }
                    output(UnsafeBufferPointer(rebasing: text[start..<index]))
                    write("\u{FFFD}", output)
                    index += 3
                    start = index
                    continue
                }
                output(UnsafeBufferPointer(rebasing: text[start..<index]))
                switch byte {
                case 0x26: html ? write("&amp;amp;", output) : write("&amp;", output)
                case 0x3C: html ? write("&amp;lt;", output) : write("&lt;", output)
                case 0x3E: html ? write("&amp;gt;", output) : write("&gt;", output)
                case 0x22: html ? write("&amp;quot;", output) : write("&quot;", output)
                case 0x27: html ? write("&amp;#39;", output) : write("&apos;", output)
                case 0x09: write("&#9;", output)
                case 0x0A: breaks ? write("&lt;br/&gt;", output) : write("&#10;", output)
                case 0x0D: write("&#13;", output)
                default: write("\u{FFFD}", output)
                }
                index += 1
                start = index
            }
            output(UnsafeBufferPointer(rebasing: text[start..<count]))
        }
    }

    /// `text` escaped.
    static func escaped(_ text: String) -> String {
        var text = text
        var result = ""
        result.reserveCapacity(text.utf8.count)
        text.withUTF8 { bytes in
            escape(bytes) { result += String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
        }
        return result
    }
}
