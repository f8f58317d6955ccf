import Foundation
@testable import HubGeoJSON
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// `validate`'s positions (``DocumentPositions``, the one map of paths to positions) against a reference: the
/// generator below writes random documents in every layout (minified, pretty, `\n`, `\r\n` and
/// lone `\r` line ends, non-ASCII text, keys holding dots, brackets and quotes) and notes where
/// it put each value; and their work is linear in the document's size.
@Suite("Document positions: exact in every layout, linear in the size")
struct DocumentPositionsTests {
    /// Writes a JSON document and the span of each value as ``DocumentPositions`` defines it.
    struct Writer {
        var random: SplitMix64
        var text = ""
        var line = 1
        var column = 1
        var spans: [String: DocumentPositions.Span] = [:]
        /// The line of each member (of its key) and of each object element (of its first key).
        var memberLines: [String: Int] = [:]
        /// Line ends to use, and whether to write white space at all.
        var lineEnds: [String]
        var minified: Bool

        mutating func emit(_ piece: String) {
            for scalar in piece.unicodeScalars {
                precondition(scalar != "\n" && scalar != "\r")
                column += 1
            }
            text += piece
        }

        mutating func space() {
            guard !minified else { return }
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                text += lineEnds.randomElement(using: &random)!
                line += 1
                column = 1
                emit(String(repeating: " ", count: Int.random(in: 0..<4, using: &random)))
            case 1: emit(" ")
            case 2: emit("\t")
            default: break
            }
        }

        static let keys = ["a", "town", "website.x", "a[0]", "q\"uote", "é", "日本", "x y", "back\\slash", "$schema", "_k", "1st", "tab\t"]
        static let texts = ["", "plain", "é", "日本語", "emoji 🎉", "quote \\\"", "slash \\/", "escape \\u00e9", "cr \\r lf \\n"]

        /// Writes a value at `path` and returns where its first and last characters are.
        mutating func value(path: String, depth: Int) -> (start: (Int, Int), end: (Int, Int), firstKey: (Int, Int)?) {
            let start = (line, column)
            switch depth > 3 ? Int.random(in: 2..<6, using: &random) : Int.random(in: 0..<6, using: &random) {
            case 0:
                emit("{")
                space()
                var firstKey: (Int, Int)?
                let keys = Self.keys.shuffled(using: &random).prefix(Int.random(in: 0..<5, using: &random))
                for (index, key) in keys.enumerated() {
                    if index > 0 { emit(","); space() }
                    let keyStart = (line, column)
                    if firstKey == nil { firstKey = keyStart }
                    emit(String(decoding: try! JSONEncoder().encode(key), as: UTF8.self))
                    space()
                    emit(":")
                    space()
                    let memberPath = JSONPath.member(path, key)
                    let member = value(path: memberPath, depth: depth + 1)
                    spans[memberPath] = .init(line: keyStart.0, column: keyStart.1, endLine: member.end.0, endColumn: member.end.1)
                    memberLines[memberPath] = keyStart.0
                    space()
                }
                let end = (line, column)
                emit("}")
                return (start, end, firstKey)
            case 1:
                emit("[")
                space()
                for index in 0..<Int.random(in: 0..<4, using: &random) {
                    if index > 0 { emit(","); space() }
                    let elementPath = JSONPath.element(path, index)
                    let element = value(path: elementPath, depth: depth + 1)
                    let begin = element.firstKey ?? element.start
                    spans[elementPath] = .init(line: begin.0, column: begin.1, endLine: element.end.0, endColumn: element.end.1)
                    if let firstKey = element.firstKey { memberLines[elementPath] = firstKey.0 }
                    space()
                }
                let end = (line, column)
                emit("]")
                return (start, end, nil)
            case 2:
                emit("\"" + Self.texts.randomElement(using: &random)! + "\"")
            case 3:
                emit(["0", "-12.5", "3e7", "1E-3"].randomElement(using: &random)!)
            default:
                emit(["true", "false", "null"].randomElement(using: &random)!)
            }
            return (start, (line, column - 1), nil)
        }
    }

    @Test("every value's line, column and end equal the generator's, for 2,000 documents in every layout")
    func positionsMatchTheGenerator() throws {
        var random = SplitMix64(seed: 31)
        let layouts: [(ends: [String], minified: Bool)] = [(["\n"], false), (["\r\n"], false), (["\r"], false),
                                                            (["\n", "\r\n", "\r"], false), (["\n"], true)]
        for round in 0..<2_000 {
            let layout = layouts[round % layouts.count]
            var writer = Writer(random: SplitMix64(seed: random.next()), lineEnds: layout.ends, minified: layout.minified)
            writer.space()
            let root = writer.value(path: "", depth: 0)
            writer.space()
            writer.spans[""] = .init(line: root.start.0, column: root.start.1, endLine: root.end.0, endColumn: root.end.1)
            let data = Data(writer.text.utf8)
            let positions = try #require(DocumentPositions(data), "\(writer.text)")
            for (path, expected) in writer.spans {
                #expect(positions.span(at: path) == expected, "\(path) in \(writer.text.debugDescription)")
            }
            for (path, expected) in writer.memberLines {
                #expect(positions.span(at: path)?.line == expected, "\(path) in \(writer.text.debugDescription)")
            }
        }
    }

    @Test("a missing path gets its nearest ancestor's span, through keys that hold dots and brackets")
    func ancestors() throws {
        let text = #"{"o": {"website.x": [1, {"a[0]": true}]}}"#
        let positions = try #require(DocumentPositions(Data(text.utf8)))
        #expect(JSONPath.member(JSONPath.member("o", "website.x"), "z") == #"o["website.x"].z"#)
        #expect(positions.span(at: #"o["website.x"][1]["a[0]"]"#)?.column == 26)
        #expect(positions.span(at: #"o["website.x"][1]["a[0]"].missing"#)?.column == 26)
        #expect(positions.span(at: #"o["website.x"][9]"#)?.column == 8)
        #expect(positions.span(at: "o.website.x") == positions.span(at: "o"))
        #expect(JSONPath.steps(of: #"o["website.x"][1]["a\"]"].b"#) == [.key("o"), .key("website.x"), .index(1), .key("a\"]"), .key("b")])
    }

    static func minified(organizations: Int) -> Data {
        let records = (0..<organizations).map { index in
            #"{"idPlus":{"town":"Town\#(index)","fullName":"Fotoclub \#(index)","nickName":"fc\#(index)"},"#
                + #""coordinates":{"latitude":\#(40 + Double(index) / 100),"longitude":5.5},"optional":{"website":"https://example.org/\#(index)"}}"#
        }
        return Data(#"{"clubs":[\#(records.joined(separator: ","))]}"#.utf8)
    }

    // Complexity guards (``ComplexityGuard``): 8 times the input must take less than 24 times the
    // CPU time. Linear work takes about 8 times; quadratic work 64 times.
    @Test("positions and lines of a minified document: 8 times the organizations take less than 24 times as long (quadratic: 64)")
    func linearOnOneLine() throws {
        let small = Self.minified(organizations: 250), large = Self.minified(organizations: 2_000)
        let smallTime = ComplexityGuard.fastestCPUSeconds { _ = DocumentPositions(small) }
        let largeTime = ComplexityGuard.fastestCPUSeconds { _ = DocumentPositions(large) }
        #expect(largeTime < 24 * smallTime, "DocumentPositions: \(smallTime) s for 250 organizations, \(largeTime) s for 2,000")

        // 40,000 keys in one object, each looked up (as `validate` looks up each unknown key's line):
        // was a scan of the members per key.
        func keys(_ count: Int) -> (Data, [String]) {
            let names = (0..<count).map { "unknownKey\($0)" }
            return (Data(("{" + names.map { "\"\($0)\": 1" }.joined(separator: ",\n") + "}").utf8), names)
        }
        let (smallData, smallKeys) = keys(5_000), (largeData, largeKeys) = keys(40_000)
        let smallLookup = ComplexityGuard.fastestCPUSeconds { let positions = DocumentPositions(smallData); for key in smallKeys { _ = positions?.span(at: key) } }
        let largeLookup = ComplexityGuard.fastestCPUSeconds { let positions = DocumentPositions(largeData); for key in largeKeys { _ = positions?.span(at: key) } }
        #expect(largeLookup < 24 * smallLookup, "DocumentPositions lookups: \(smallLookup) s for 5,000 keys, \(largeLookup) s for 40,000")
    }
}
