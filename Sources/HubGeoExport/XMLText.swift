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

    /// Hands `text` (UTF-8), escaped, to `output` in runs (through ``ByteWords``' one escaping loop).
    @inline(__always)
    static func escape(_ text: UnsafeBufferPointer<UInt8>, html: Bool = false, breaks: Bool = false,
                       into output: (UnsafeBufferPointer<UInt8>) -> Void) {
        byteClass.withUnsafeBufferPointer { table in
            ByteWords.escape(text, .xml, classes: table, into: output) { index, kind in
                if kind == 2 {
                    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) become U+FFFD.
                    guard index + 2 < text.count, text[index + 1] == 0xBF, text[index + 2] == 0xBE || text[index + 2] == 0xBF else {
                        return nil
                    }
                    return ByteWords.Replacement("\u{FFFD}", replacing: 3)
                }
                switch text[index] {
                case 0x26: return ByteWords.Replacement(html ? "&amp;amp;" : "&amp;")
                case 0x3C: return ByteWords.Replacement(html ? "&amp;lt;" : "&lt;")
                case 0x3E: return ByteWords.Replacement(html ? "&amp;gt;" : "&gt;")
                case 0x22: return ByteWords.Replacement(html ? "&amp;quot;" : "&quot;")
                case 0x27: return ByteWords.Replacement(html ? "&amp;#39;" : "&apos;")
                case 0x09: return ByteWords.Replacement("&#9;")
                case 0x0A: return ByteWords.Replacement(breaks ? "&lt;br/&gt;" : "&#10;")
                case 0x0D: return ByteWords.Replacement("&#13;")
                default: return ByteWords.Replacement("\u{FFFD}")
                }
            }
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
