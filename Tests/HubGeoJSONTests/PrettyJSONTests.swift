import Foundation
@testable import HubGeoJSON
import Testing

/// ``PrettyJSON`` writes what Foundation's `JSONEncoder` (`[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`) wrote before it, byte for byte, except for its own string escapes.
@Suite("Pretty JSON")
struct PrettyJSONTests {
    struct Inner: Codable, Equatable {
        var b: Int
        var a: String?
        var list: [Double]
    }

    enum Kind: String, Codable { case club, museum }

    struct Sample: Codable, Equatable {
        var zeta = "z/with/slashes and \"quotes\" \\ and é 📷 \u{2028}"
        var alpha = 42
        var negative = -7
        var big: UInt64 = .max
        var small: Int8 = -128
        var ratio = 0.1
        var whole = 3.0
        var tiny = 1e-7
        var huge = 1.5e300
        var float: Float = 2.5
        var yes = true
        var no = false
        var missing: String?
        var kind = Kind.museum
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var inners = [Inner(b: 1, a: "x", list: [1, 2.25]), Inner(b: 2, a: nil, list: [])]
        var nested: [[String]] = [["a"], [], ["b", "c"]]
        var map = ["B": 1, "a": 2, "aa": 3, "Ä": 4, "10": 5, "9": 6]
        var url = URL(string: "https://example.org/a b?x=1")!
        var optionals: [Int?] = [1, nil, 3]
    }

    func foundation<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("the layout, key order and numbers of JSONEncoder's pretty, sorted output")
    func sameAsFoundation() throws {
        #expect(try PrettyJSON.string(Sample()) == foundation(Sample()))
        #expect(try PrettyJSON.string([Sample(), Sample()]) == foundation([Sample(), Sample()]))
        #expect(try PrettyJSON.string([String: Int]()) == foundation([String: Int]()))
        #expect(try PrettyJSON.string([Int]()) == foundation([Int]()))
        #expect(try PrettyJSON.string("top") == foundation("top"))
        #expect(try PrettyJSON.string(Optional<Int>.none) == foundation(Optional<Int>.none))
        #expect(try PrettyJSON.string([0.5, -0.0, 100, 123456789.125]) == foundation([0.5, -0.0, 100, 123456789.125]))
    }

    @Test("strings are escaped by the one escaper: control characters as \\u00XX in upper case")
    func strings() throws {
        #expect(try PrettyJSON.string(["k\u{1F}": "a/b\u{01}\n"]) == "{\n  \"k\\u001F\" : \"a/b\\u0001\\n\"\n}")
        let decoded = try JSONDecoder().decode(Sample.self, from: Data(try PrettyJSON.string(Sample()).utf8))
        #expect(decoded == Sample())
    }

    @Test("a NaN or an infinity is refused, naming where it is")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try PrettyJSON.string(Inner(b: 1, a: nil, list: [1, .nan])) }
        #expect(throws: EncodingError.self) { try PrettyJSON.string(Double.infinity) }
    }
}
