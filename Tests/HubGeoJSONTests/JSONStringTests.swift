import Foundation
@testable import HubGeoJSON
import Testing

@Suite("The one JSON string escaper")
struct JSONStringTests {
    /// What each character must become, written out by hand: the test's own reference.
    static func expected(_ special: String, _ context: JSONString.Context) -> String {
        switch special {
        case "\"": #"\""#
        case "\\": #"\\"#
        case "\n": #"\n"#
        case "\r": #"\r"#
        case "\t": #"\t"#
        case "\u{08}": #"\b"#
        case "\u{0C}": #"\f"#
        case "\u{00}": #"\u0000"#
        case "\u{01}": #"\u0001"#
        case "\u{1F}": #"\u001F"#
        case "\u{2028}": context.contains(.javaScript) ? #"\u2028"# : special
        case "\u{2029}": context.contains(.javaScript) ? #"\u2029"# : special
        case "<": context.contains(.scriptElement) ? #"\u003C"# : special
        case ">": context.contains(.scriptElement) ? #"\u003E"# : special
        case "&": context.contains(.scriptElement) ? #"\u0026"# : special
        default: special
        }
    }

    static let specials = ["\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", "\u{7F}", "/",
                           "\u{2028}", "\u{2029}", "<", ">", "&", "'", "é", "€", "\u{E2}", "📷", "\u{FFFE}"]
    static let contexts: [JSONString.Context] = [.json, .javaScript, .scriptElement]

    @Test("each character as the reference says, in each context, wherever it stands in an 8-byte word")
    func everyCharacterAtEveryOffset() {
        for context in Self.contexts {
            for special in Self.specials {
                for offset in 0..<20 {
                    let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: 19 - offset)
                    let quoted = JSONString.quoted(before + special + after, for: context)
                    #expect(quoted == "\"" + before + Self.expected(special, context) + after + "\"",
                            "\(special.unicodeScalars.map { String($0.value, radix: 16) }) at \(offset) in \(context.rawValue)")
                }
            }
        }
    }

    @Test("a run of escapes, and strings that are escapes only")
    func runs() {
        #expect(JSONString.quoted("") == "\"\"")
        #expect(JSONString.quoted("\"\"\\\n") == #""\"\"\\\n""#)
        #expect(JSONString.quoted("</script><!--", for: .scriptElement) == #""\u003C/script\u003E\u003C!--""#)
        // A lead byte of U+2028 at the end, its sequence cut short, is passed on as it is.
        for cut: [UInt8] in [[0x61, 0xE2], [0x61, 0xE2, 0x80], [0xE2, 0x80, 0xAA]] {
            var written: [UInt8] = []
            cut.withUnsafeBufferPointer { bytes in JSONString.escape(bytes, for: .javaScript) { written += $0 } }
            #expect(written == cut)
        }
        var text = "x="
        JSONString.append("a\"b", to: &text)
        #expect(text == #"x=a\"b"#)
    }

    @Test("every string survives a round trip through Foundation's parser, in every context", arguments: [
        "Club \"<&]]>\" 'single' back\\slash \\u0041 new\nline\ttab עברית 📷👩‍👩‍👧 \u{2028}\u{2029} end",
        String((0..<0x20).map { Character(Unicode.Scalar($0)!) }), "</script>", "",
    ])
    func roundTrip(text: String) throws {
        for context in Self.contexts {
            let json = "[" + JSONString.quoted(text, for: context) + "]"
            let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
            #expect(parsed == [text])
            if context.contains(.javaScript) { #expect(!json.contains("\u{2028}") && !json.contains("\u{2029}")) }
            if context.contains(.scriptElement) { #expect(!json.contains("<") && !json.contains(">") && !json.contains("&")) }
        }
    }

    @Test("JSON text adapted to a script element is what the strings escaped for it make")
    func adaptingJSONText() {
        for special in Self.specials {
            let text = "a" + special + "</script>"
            #expect(JSONString.adapting(json: "{\"k\":" + JSONString.quoted(text) + "}", to: .scriptElement)
                    == "{\"k\":" + JSONString.quoted(text, for: .scriptElement) + "}")
        }
        #expect(JSONString.adapting(json: "[1,{\"a\":\"\\\"\"}]", to: .scriptElement) == "[1,{\"a\":\"\\\"\"}]")
    }
}
