import Foundation
@testable import HubGeoJSON
import Testing

@Suite("Strict JSON parser")
struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONValue {
        try JSONParser().parse(Data(text.utf8))
    }

    @Test func parsesValuesAndKeepsMemberOrderAndLines() throws {
        let value = try parse("{\n \"b\": [1, -2.5e2, true, null],\n \"a\": \"\\u00e9\\ud83d\\ude00\\n\"\n}")
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members.map(\.line) == [2, 3])
        #expect(value["b"] == .array([.number(1), .number(-250), .bool(true), .null]))
        #expect(value["a"] == .string("é😀\n"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "trailing comma"),
        ("[1, 2", "truncated"),
        ("{\"a\": NaN}", "NaN"),
        ("{\"a\": 01}", "leading zeros"),
        ("\"\\ud800\"", "surrogate"),
        ("{\"a\": 1} x", "after the end"),
        ("{\"a\": \"x\ny\"}", "span lines"),
        ("", "ends where a value"),
    ])
    func rejectsWithAReason(_ text: String, _ reason: String) {
        #expect {
            try parse(text)
        } throws: { error in
            (error as? JSONParser.SyntaxError)?.reason.contains(reason) == true
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try parse("{\n  \"a\": 1,\n  \"b\" 2\n}")
            Issue.record("must fail")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 7)
        }
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser().parse(Data([0x22, 0xC3, 0x28, 0x22])) }
        #expect(throws: JSONParser.SyntaxError.self) { try parse(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) }
    }

    @Test("validate accepts what parse accepts and refuses with parse's error (line, column, reason), without a tree")
    func validateAgreesWithParse() throws {
        let documents = [
            "{\n \"b\": [1, -2.5e2, true, null],\n \"a\": \"\\u00e9\\ud83d\\ude00\\n\"\n}",
            "{\"a\": 1,}", "[1, 2", "{\"a\": NaN}", "{\"a\": 01}", "\"\\ud800\"", "{\"a\": 1} x",
            "{\"a\": \"x\ny\"}", "", "{\n  \"a\": 1,\n  \"b\" 2\n}", "\u{FEFF}[1]",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        var refused = 0
        for text in documents {
            let data = Data(text.utf8)
            var parseError: JSONParser.SyntaxError?
            do { _ = try JSONParser().parse(data) } catch { parseError = error }
            var validateError: JSONParser.SyntaxError?
            do { try JSONParser().validate(data) } catch { validateError = error }
            #expect(parseError == validateError, "\(text.prefix(40))")
            if parseError != nil { refused += 1 }
        }
        #expect(refused == 10)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser().validate(Data([0x22, 0xC3, 0x28, 0x22])) }
    }
}
