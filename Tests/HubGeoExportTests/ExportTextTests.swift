import Foundation
@testable import HubGeoExport
import HubGeoTestSupport
import Testing

@Suite("Export text encodings")
struct ExportTextTests {
    @Test("XML escaping covers markup, quotes and whitespace; forbidden characters become U+FFFD")
    func xmlEscaping() {
        #expect(ExportText.xmlEscaped("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(ExportText.xmlEscaped("]]>") == "]]&gt;")
        #expect(ExportText.xmlEscaped("\t\n\r") == "&#9;&#10;&#13;")
        #expect(ExportText.xmlEscaped("x\u{01}y\u{FFFE}") == "x\u{FFFD}y\u{FFFD}")
        #expect(ExportText.xmlEscaped("plain ﻿ text 📷") == "plain ﻿ text 📷")
    }

    @Test("The byte buffer escapes as ExportText does, whatever a character's place in an 8-byte word")
    func bufferEscapingAtEveryOffset() {
        let specials = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "&", "<", ">", "'", "\u{2028}", "\u{FFFE}", "é", "€", "📷"]
        for special in specials {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 19 - offset)
                let buffer = UTF8Buffer()
                let bytes = Array(text.utf8)
                bytes.withUnsafeBufferPointer { buffer.append(jsonString: $0, for: .javaScript) }
                buffer.append(byte: UInt8(ascii: "|"))
                bytes.withUnsafeBufferPointer { buffer.append(xmlEscaped: $0) }
                let written = buffer.withBytes { String(decoding: $0, as: UTF8.self) }
                #expect(written == ExportText.jsonString(text) + "|" + ExportText.xmlEscaped(text), "\(special) at \(offset)")
            }
        }
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
