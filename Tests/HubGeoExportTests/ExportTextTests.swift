import Foundation
@testable import HubGeoExport
import Testing

@Suite("Export text encodings")
struct ExportTextTests {
    /// What each character must become in XML text (and, with `html`, as HTML inside XML text),
    /// written out by hand: the test's own reference.
    static func expectedXML(_ special: String, html: Bool, breaks: Bool) -> String {
        switch special {
        case "&": html ? "&amp;amp;" : "&amp;"
        case "<": html ? "&amp;lt;" : "&lt;"
        case ">": html ? "&amp;gt;" : "&gt;"
        case "\"": html ? "&amp;quot;" : "&quot;"
        case "'": html ? "&amp;#39;" : "&apos;"
        case "\t": "&#9;"
        case "\n": breaks ? "&lt;br/&gt;" : "&#10;"
        case "\r": "&#13;"
        case "\u{01}", "\u{1F}", "\u{FFFE}", "\u{FFFF}": "\u{FFFD}"
        default: special
        }
    }

    @Test("XML escaping covers markup, quotes and whitespace; forbidden characters become U+FFFD; wherever they stand in an 8-byte word")
    func xmlEscaping() {
        #expect(XMLText.escaped("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(XMLText.escaped("]]>") == "]]&gt;")
        #expect(XMLText.escaped("") == "")
        let specials = ["\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "&", "<", ">", "'", "\u{2028}", "\u{FFFE}", "\u{FFFF}",
                        "\u{FEFF}", "\u{FFFD}", "é", "€", "📷"]
        for (html, breaks) in [(false, false), (true, false), (true, true)] {
            for special in specials {
                for offset in 0..<20 {
                    let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: 19 - offset)
                    let buffer = UTF8Buffer()
                    let bytes = Array((before + special + after).utf8)
                    bytes.withUnsafeBufferPointer { buffer.append(xmlEscaped: $0, html: html, breaks: breaks) }
                    let written = buffer.withBytes { String(decoding: $0, as: UTF8.self) }
                    #expect(written == before + Self.expectedXML(special, html: html, breaks: breaks) + after,
                            "\(special.unicodeScalars.map { String($0.value, radix: 16) }) at \(offset), html \(html)")
                }
            }
        }
    }

    @Test("A copy of bytes already written comes out whole, also when the copy makes the buffer grow")
    func copyOfWrittenBytes() {
        let buffer = UTF8Buffer(capacity: 64)
        buffer.append("<a href=")
        let escaped = buffer.count
        let website = Array("https://example.org/?a=1&b=\"2\"<3>".utf8)
        website.withUnsafeBufferPointer { buffer.append(xmlEscaped: $0, html: true) }
        let escapedEnd = buffer.count
        buffer.append(">")
        buffer.append(copyOf: escaped..<escapedEnd)
        let once = "https://example.org/?a=1&amp;amp;b=&amp;quot;2&amp;quot;&amp;lt;3&amp;gt;"
        #expect(buffer.withBytes { String(decoding: $0, as: UTF8.self) } == "<a href=" + once + ">" + once)
        #expect(buffer.count > 64)
    }

    @Test("Coordinates: at most 7 decimals, no exponent, no -0")
    func coordinates() {
        #expect(ExportText.coordinate(5.4) == "5.4")
        #expect(ExportText.coordinate(51) == "51")
        #expect(ExportText.coordinate(-0.0) == "0")
        #expect(ExportText.coordinate(-0.00000004) == "0")
        #expect(ExportText.coordinate(-0.00000005) == "-0.0000001")
        #expect(ExportText.coordinate(1e-7) == "0.0000001")
        #expect(ExportText.coordinate(0.000012) == "0.000012")
        #expect(ExportText.coordinate(-179.99999999) == "-180")
        #expect(ExportText.coordinate(151.20929551) == "151.2092955")
        #expect(ExportText.coordinate(-33.86881974) == "-33.8688197")
        #expect(ExportText.coordinate(5.45) == "5.45")
        #expect(ExportText.coordinate(90) == "90")
    }

    @Test("Random coordinates format as plain decimals that read back within 5e-8")
    func randomCoordinates() {
        var random = SystemRandomNumberGenerator()
        let pattern = /-?(0|[1-9][0-9]*)(\.[0-9]{0,6}[1-9])?/
        for _ in 0..<20_000 {
            let value = Double.random(in: -180...180, using: &random) * (Bool.random() ? 1 : 1e-6)
            let text = ExportText.coordinate(value)
            #expect(text.wholeMatch(of: pattern) != nil, "\(value) -> \(text)")
            #expect(text != "-0")
            #expect(abs(Double(text)! - value) <= 5.0000001e-8, "\(value) -> \(text)")
            #expect(Double(text)! == ExportText.roundedCoordinate(value))
        }
    }
}
