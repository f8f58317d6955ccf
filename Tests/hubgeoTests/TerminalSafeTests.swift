import Foundation
@testable import hubgeo
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The escaping of text for terminals: readable, and always readable back to the exact text.
@Suite("TerminalSafe: control characters shown escaped, unambiguously")
struct TerminalSafeTests {
    @Test func escapesControlsDELC1AndBidirectionalControls() {
        #expect(TerminalSafe.escaped("a\u{1B}]0;t\u{07}b") == #"a\u{1B}]0;t\u{7}b"#)
        #expect(TerminalSafe.escaped("\u{7F}\u{80}\u{9F}\u{A0}") == "\\u{7F}\\u{80}\\u{9F}\u{A0}")
        #expect(TerminalSafe.escaped("x\u{202E}y\u{2066}z\u{2069}\u{202A}") == #"x\u{202E}y\u{2066}z\u{2069}\u{202A}"#)
        #expect(TerminalSafe.escaped("tab\there\r\n") == #"tab\u{9}here\u{D}\u{A}"#)
        #expect(TerminalSafe.escaped("one\ntwo\r\n", keepingLineFeeds: true) == "one\ntwo\\u{D}\n")
        #expect(TerminalSafe.escaped("Fotogroep Waalre, Zoë 写真 🙂") == "Fotogroep Waalre, Zoë 写真 🙂")
    }

    @Test func doublesOnlyTheBackslashesThatCouldBeReadAsAnEscape() {
        #expect(TerminalSafe.escaped(#"C:\Photos\club"#) == #"C:\Photos\club"#)
        #expect(TerminalSafe.escaped(#"\u{1B}"#) == #"\\u{1B}"#, "the text of an escape is not an escape")
        #expect(TerminalSafe.escaped(#"a\\b"#) == #"a\\\b"#)
        #expect(TerminalSafe.escaped("\\\u{1B}") == #"\\\u{1B}"#)
        #expect(TerminalSafe.escaped(#"\u"#) == #"\u"#)
        #expect(TerminalSafe.escaped(#"end\"#) == #"end\"#)
    }

    /// Reads escaped text back, by the documented convention.
    static func unescaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                if scalars[index + 1] == "\\" {
                    result.append("\\")
                    index += 2
                    continue
                }
                if scalars[index + 1] == "u", index + 2 < scalars.count, scalars[index + 2] == "{",
                   let close = scalars[(index + 3)...].firstIndex(of: "}"),
                   let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 3)..<close])), radix: 16),
                   let escaped = Unicode.Scalar(value) {
                    result.append(escaped)
                    index = close + 1
                    continue
                }
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    @Test func whatIsShownReadsBackToTheExactText() {
        let alphabet: [Unicode.Scalar] = ["\\", "u", "{", "}", "1", "B", "a", " ", "\u{1B}", "\u{07}", "\n", "\u{7F}", "\u{85}", "\u{202E}"]
        var random = SplitMix64(seed: 20)
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
            let original = String(text)
            let shown = TerminalSafe.escaped(original)
            #expect(!shown.unicodeScalars.contains(where: TerminalSafe.isEscaped), "\(shown.debugDescription)")
            #expect(Self.unescaped(shown) == original, "\(original.debugDescription) shown as \(shown.debugDescription)")
            let kept = TerminalSafe.escaped(original, keepingLineFeeds: true)
            #expect(Self.unescaped(kept) == original, "\(original.debugDescription) shown as \(kept.debugDescription)")
        }
    }

    @Test func namesTheEscapedCharactersOnceEach() {
        #expect(TerminalSafe.escapedCharacters(in: "a\u{1B}[1m\u{1B}\u{07}\u{202E}") == ["U+001B", "U+0007", "U+202E"])
        #expect(TerminalSafe.escapedCharacters(in: "a\u{1B}\u{202E}", where: TerminalSafe.isBidirectionalControl) == ["U+202E"])
        #expect(TerminalSafe.escapedCharacters(in: "plain").isEmpty)
    }

    @Test func tablesAlignOnWhatIsShownAndGiveALineBreakItsOwnLine() {
        var table = TextTable(headers: ["Name", "N"], alignments: [.left, .right])
        table.append(["a\u{1B}[2Jb", "1"])
        table.append(["two\nlines", "22"])
        table.append(["plain", "3"])
        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
        let expected: [String] = [
            "Name" + spaces(10) + "N",
            String(repeating: "-", count: 11) + "  --",
            "a\u{1B}[2Jb" + spaces(3) + "1",
            "two" + spaces(10) + "22",
            "lines",
            "plain" + spaces(9) + "3",
        ]
        #expect(table.render().components(separatedBy: "\n") == expected)
        // As printed (escaped), the columns line up: `a\u{1B}[2Jb` is 13 columns wide.
        let shown = TerminalSafe.escaped(table.render(), keepingLineFeeds: true).split(separator: "\n")
        #expect(shown[2] == #"a\u{1B}[2Jb   1"#)
    }

    /// Distances in tables: as `String(format: "%.2f")` wrote them, halfway cases and large values included.
    @Test(arguments: [0, 0.004999, 0.005, 0.015, 0.125, 0.375, 1.005, 2.675, 17.085, 19.7, -0.001, 20037.508, 1e20, 123456789.995])
    func distancesHaveTwoDecimalsAsPrintfWritesThem(_ value: Double) {
        #expect(ResultPrinter.twoDecimals(value) == String(format: "%.2f", value))
    }

    /// The same for every halfway point up to 1,000 km and its neighbours, and for random values
    /// of every magnitude up to where `vsnprintf` takes over.
    @Test func distancesMatchPrintfAroundEveryHalfwayPoint() {
        var values: [Double] = []
        for n in 0..<100_000 {
            let halfway = (Double(n) + 0.5) / 100
            values += [halfway, halfway.nextUp, halfway.nextDown, -halfway]
        }
        var generator = SplitMix64(seed: 22)
        for _ in 0..<100_000 {
            values.append(Double.random(in: 0..<1, using: &generator) * Double(sign: .plus, exponent: Int.random(in: -20...45, using: &generator), significand: 1))
        }
        let firstMismatches = Array(values.lazy.filter { ResultPrinter.twoDecimals($0) != String(format: "%.2f", $0) }.prefix(5))
        #expect(firstMismatches.isEmpty)
    }
}
