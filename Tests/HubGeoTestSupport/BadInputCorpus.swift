import Foundation
import Testing

/// Bad inputs that must each give a clear error: `hubgeo validate` and `hubgeo import` exit 1
/// with the expected text, nothing crashes, and an existing database is left byte for byte.
/// Each case is a folder of files whose Level 1 root is `root.level1.json`.
package struct BadInput: CustomTestStringConvertible, Sendable {
    package var name: String
    /// File name to content; `nil` content means "generate at test time" (the 50 MB file).
    package var files: [String: Data]
    /// Text that `validate` must print and `import` must write to stderr.
    package var expect: String
    /// What validate says when it differs from the import's wording.
    package var validateExpect: String?
    package var generatedBytes: Int?

    package var testDescription: String { name }

    package init(_ name: String, _ files: [String: Data], expect: String, validate: String? = nil, generatedBytes: Int? = nil) {
        self.name = name
        self.files = files
        self.expect = expect
        self.validateExpect = validate
        self.generatedBytes = generatedBytes
    }

    /// A root file with these exact bytes.
    package static func root(_ name: String, _ bytes: Data, expect: String, validate: String? = nil) -> BadInput {
        BadInput(name, ["root.level1.json": bytes], expect: expect, validate: validate)
    }

    package static func root(_ name: String, _ text: String, expect: String, validate: String? = nil) -> BadInput {
        root(name, Data(text.utf8), expect: expect, validate: validate)
    }

    /// A root whose only club has `record` (JSON text) as its entry: the import skips it and so has nothing.
    package static func record(_ name: String, _ record: String, expect: String) -> BadInput {
        root(name, "{\"clubs\": [\n\(record)\n]}", expect: expect)
    }

    package static let good = #"{"idPlus": {"town": "Town", "fullName": "Club", "nickName": "club"}, "coordinates": {"latitude": 51.4, "longitude": 5.4}}"#

    package static func withCoordinates(_ coordinates: String) -> String {
        #"{"idPlus": {"town": "Town", "fullName": "Club", "nickName": "club"}, "coordinates": "# + coordinates + "}"
    }

    package static let all: [BadInput] = [
        root("garbage text", "This is not JSON at all.\n", expect: "malformed JSON"),
        root("empty file", "", expect: "the document ends where a value was expected"),
        root("only white space", "  \n\t\n", expect: "the document ends where a value was expected"),
        root("truncated inside a string", "{\"clubs\": [\n  {\"idPlus\": {\"town\": \"Amsterda", expect: "truncated"),
        root("truncated after an opening bracket", "{\"clubs\": [", expect: "truncated"),
        root("truncated after a member", "{\"clubs\": [\(good)", expect: "truncated"),
        root("invalid UTF-8 in a string", Data("{\"clubs\": [{\"idPlus\": {\"town\": \"T".utf8) + Data([0xFF, 0xFE]) + Data("\"}}]}".utf8),
             expect: "not valid UTF-8"),
        root("Latin-1 byte in a string", Data("{\"clubs\": [{\"idPlus\": {\"town\": \"Caf".utf8) + Data([0xE9]) + Data("\"}}]}".utf8),
             expect: "not valid UTF-8"),
        root("overlong UTF-8 encoding", Data("{\"x\": \"".utf8) + Data([0xC0, 0xAF]) + Data("\"}".utf8), expect: "not valid UTF-8"),
        root("stray byte outside strings", Data("{\"clubs\": ".utf8) + Data([0x80]) + Data("[]}".utf8), expect: "byte 0x80"),
        root("NUL byte", Data("{\"clubs\": [] ".utf8) + Data([0x00]) + Data("}".utf8), expect: "malformed JSON"),
        root("UTF-16 file", Data([0xFF, 0xFE]) + "{\"clubs\": []}".data(using: .utf16LittleEndian)!, expect: "UTF-16"),
        BadInput("50 MB file", [:], expect: "more than the limit of", generatedBytes: 50_000_000),
        root("arrays nested 100000 deep", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
             expect: "nesting deeper than 512 levels"),
        root("objects nested 600 deep in optional",
             "{\"clubs\": [{\"optional\": " + String(repeating: "{\"a\": ", count: 600) + "1" + String(repeating: "}", count: 600) + "}]}",
             expect: "nesting deeper than 512 levels"),
        record("NaN latitude", withCoordinates(#"{"latitude": NaN, "longitude": 5.4}"#), expect: "NaN and Infinity are not JSON numbers"),
        record("Infinity longitude", withCoordinates(#"{"latitude": 51.4, "longitude": Infinity}"#), expect: "NaN and Infinity are not JSON numbers"),
        record("-Infinity latitude", withCoordinates(#"{"latitude": -Infinity, "longitude": 5.4}"#), expect: "NaN and Infinity are not JSON numbers"),
        record("number too large for a double", withCoordinates(#"{"latitude": 1e400, "longitude": 5.4}"#), expect: "is out of range"),
        record("latitude as a string", withCoordinates(#"{"latitude": "51.4", "longitude": 5.4}"#), expect: "write 51.4 without quotes"),
        record("longitude as a string", withCoordinates(#"{"latitude": 51.4, "longitude": " 5.4"}"#), expect: "without quotes"),
        record("coordinates as a string", withCoordinates(#""51.4, 5.4""#), expect: "expected an object, found a string"),
        record("very long string as latitude",
               withCoordinates("{\"latitude\": \"" + String(repeating: "9", count: 2_000_000) + "x\", \"longitude\": 5.4}"),
               expect: "expected a number, found a string"),
        root("very long unterminated string", "{\"clubs\": [{\"idPlus\": {\"town\": \"" + String(repeating: "a", count: 3_000_000),
             expect: "truncated"),
        record("duplicate key: the last coordinates lack a latitude",
               #"{"idPlus": {"town": "Town", "fullName": "Club", "nickName": "club"}, "coordinates": {"latitude": 51.4, "longitude": 5.4}, "coordinates": {"longitude": 5.4}}"#,
               expect: "required key \"latitude\" is missing"),
        root("duplicate key: clubs twice, the last a string", "{\"clubs\": [\(good)],\n \"clubs\": \"none\"}", expect: "expected an array, found a string"),
        root("top level is an array", "[\(good)]", expect: "must be a JSON object, found an array"),
        root("top level is a number", "42", expect: "must be a JSON object, found a number"),
        root("clubs is an object", "{\"clubs\": \(good)}", expect: "expected an array, found an object"),
        record("missing idPlus", #"{"coordinates": {"latitude": 51.4, "longitude": 5.4}}"#, expect: "required key \"idPlus\" is missing"),
        record("missing town", #"{"idPlus": {"fullName": "Club", "nickName": "club"}, "coordinates": {"latitude": 51.4, "longitude": 5.4}}"#,
               expect: "required key \"town\" is missing"),
        record("empty fullName", #"{"idPlus": {"town": "Town", "fullName": "", "nickName": "club"}, "coordinates": {"latitude": 51.4, "longitude": 5.4}}"#,
               expect: "is empty"),
        record("blank nickName", #"{"idPlus": {"town": "Town", "fullName": "Club", "nickName": "   "}, "coordinates": {"latitude": 51.4, "longitude": 5.4}}"#,
               expect: "is empty"),
        record("town is a number", #"{"idPlus": {"town": 5, "fullName": "Club", "nickName": "club"}, "coordinates": {"latitude": 51.4, "longitude": 5.4}}"#,
               expect: "expected a string, found a number"),
        record("missing coordinates", #"{"idPlus": {"town": "Town", "fullName": "Club", "nickName": "club"}}"#,
               expect: "required key \"coordinates\" is missing"),
        record("null coordinates", withCoordinates("null"), expect: "required key \"coordinates\" is missing"),
        record("latitude out of range", withCoordinates(#"{"latitude": 95, "longitude": 5.4}"#), expect: "outside [-90, 90]"),
        record("longitude out of range", withCoordinates(#"{"latitude": 51.4, "longitude": -200}"#), expect: "outside [-180, 180]"),
        root("trailing comma", "{\"clubs\": [\(good),]}", expect: "trailing comma"),
        root("single quotes", "{'clubs': []}", expect: "expected a quoted member name"),
        root("a comment", "// clubs\n{\"clubs\": []}", expect: "unexpected character '/'"),
        root("unescaped newline in a string", "{\"clubs\": [{\"idPlus\": {\"town\": \"Den\nBosch\"}}]}", expect: "unescaped newline"),
        root("invalid escape", #"{"clubs": [{"idPlus": {"town": "C:\x"}}]}"#, expect: "invalid escape"),
        root("unpaired surrogate", #"{"clubs": [{"idPlus": {"town": "\ud800"}}]}"#, expect: "unpaired UTF-16 surrogate"),
        record("leading zeros", withCoordinates(#"{"latitude": 051.4, "longitude": 5.4}"#), expect: "leading zeros"),
        root("includes is a string", "{\"level1Header\": {\"level1URLIncludes\": \"other.level1.json\"}, \"clubs\": [\(good)]}",
             expect: "expected an array of URLs, found a string"),
        root("include cycle", "{\"level1Header\": {\"level1URLIncludes\": [\"https://example.org/root.level1.json\"]}, \"clubs\": [\(good)]}",
             expect: "include cycle"),
        root("missing include", "{\"level1Header\": {\"level1URLIncludes\": [\"https://example.org/gone.level1.json\"]}, \"clubs\": [\(good)]}",
             expect: "gone.level1.json does not exist"),
        BadInput("malformed Level 2 file", ["root.level1.json": Data("{\"clubs\": [\(good)]}".utf8),
                                           "club.level2.json": Data("{\"club\": {\"idPlus\": ".utf8)],
                 expect: "club.level2.json:1:"),
        BadInput("malformed included file", ["root.level1.json": Data("{\"level1Header\": {\"level1URLIncludes\": [\"https://example.org/more.level1.json\"]}, \"clubs\": [\(good)]}".utf8),
                                            "more.level1.json": Data("{\"museums\": [}".utf8)],
                 expect: "more.level1.json:1:"),
    ]
}
