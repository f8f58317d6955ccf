import Foundation

/// A strict JSON (RFC 8259) parser that reports the line and column of every syntax error
/// and refuses what other parsers quietly accept: NaN/Infinity, trailing commas,
/// invalid UTF-8, unpaired surrogates and nesting deeper than `maxDepth`.
package struct JSONParser {
    /// Why a document is not JSON, and where.
    package struct SyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
        package var line: Int
        package var column: Int
        package var reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Nesting deeper than this is refused (a stack-safety limit, far above real data).
    package var maxDepth = 512

    package init() {}

    /// Parses a complete document: one value, surrounded by optional white space.
    package func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
        try read(data, keepingValues: true)
    }

    /// Checks that `data` is a complete document, with the errors of ``parse(_:)``, without
    /// keeping its tree: memory stays small, whatever the document's size.
    package func validate(_ data: Data) throws(SyntaxError) {
        _ = try read(data, keepingValues: false)
    }

    private func read(_ data: Data, keepingValues: Bool) throws(SyntaxError) -> JSONValue {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(SyntaxError) -> JSONValue in
            var reader = Reader(bytes: buffer, maxDepth: maxDepth, keepsValues: keepingValues)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
            if buffer.starts(with: [0xFF, 0xFE]) || buffer.starts(with: [0xFE, 0xFF]) {
                throw reader.error("the document is UTF-16 (it starts with a UTF-16 byte order mark); JSON files must be UTF-8")
            }
            reader.skipWhitespace()
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            guard reader.position == buffer.count else {
                throw reader.error("unexpected text after the end of the document")
            }
            return value
        }
    }

    /// Parses one value that fills `bytes` (white space around it allowed), a slice of a larger
    /// document whose first byte is at `line` and `column`: lines and error positions are those
    /// of the whole document. Used to read a large file one record at a time.
    package func parse(slice bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth, keepsValues: true)
        reader.line = line
        reader.lineStart = 1 - column
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the end of the value") }
        return value
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// False: objects and arrays are checked but come back empty (``JSONParser/validate(_:)``).
    let keepsValues: Bool
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, keepsValues: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.keepsValues = keepsValues
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParser.SyntaxError {
        let at = offset ?? position
        return JSONParser.SyntaxError(line: line, column: at - lineStart + 1, reason: reason)
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        JSONWhitespace.skip(bytes, position: &position, line: &line, lineStart: &lineStart)
    }

    mutating func parseValue(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the document ends where a value was expected (truncated?)") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers")
        default:
            throw error("unexpected character \(describe(byte)) where a value was expected")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParser.SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            guard position + index < bytes.count, bytes[position + index] == start[index] else {
                throw error("invalid literal (expected \(literal))")
            }
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == nil { throw error("the document ends inside an object (truncated?)") }
                if current == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("expected a quoted member name, found \(describe(current!))")
            }
            let memberLine = line
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                if current == nil { throw error("the document ends inside an object (truncated?)") }
                throw error("expected ':' after member name \"\(key)\"")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if keepsValues { members.append(JSONMember(key: key, value: value, line: memberLine)) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            case nil: throw error("the document ends inside an object (truncated?)")
            case let byte?: throw error("expected ',' or '}' after a member, found \(describe(byte))")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            let element = try parseValue(depth: depth)
            if keepsValues { elements.append(element) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            case nil: throw error("the document ends inside an array (truncated?)")
            case let byte?: throw error("expected ',' or ']' after an element, found \(describe(byte))")
            }
        }
    }

    mutating func parseNumber() throws(JSONParser.SyntaxError) -> Double {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "I") || current == UInt8(ascii: "N") { throw error("NaN and Infinity are not JSON numbers") }
        guard let first = current, isDigit(first) else { throw error("a number needs digits after '-'") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = current, isDigit(next) { throw error("numbers may not have leading zeros") }
        } else {
            while let byte = current, isDigit(byte) { position += 1 }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let byte = current, isDigit(byte) else { throw error("a number needs digits after '.'") }
            while let byte = current, isDigit(byte) { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, isDigit(byte) else { throw error("a number needs digits in its exponent") }
            while let byte = current, isDigit(byte) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    mutating func parseString() throws(JSONParser.SyntaxError) -> String {
        let openingQuote = position
        position += 1
        var utf8: [UInt8] = []
        var runStart = position
        while true {
            guard let byte = current else {
                throw error("the document ends inside a string that starts at column \(openingQuote - lineStart + 1) (truncated?)")
            }
            switch byte {
            case UInt8(ascii: "\""):
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: openingQuote)
                }
                return string
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                try parseEscape(into: &utf8)
                runStart = position
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "a string may not span lines (unescaped newline)" : "unescaped control character in a string")
            default:
                position += 1
            }
        }
    }

    mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParser.SyntaxError) {
        guard let byte = current else { throw error("the document ends inside an escape (truncated?)") }
        position += 1
        if let character = JSONEscape.character(for: byte) {
            utf8.append(character)
            return
        }
        switch byte {
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
        default:
            throw error("invalid escape \\\(describe(byte))")
        }
    }

    mutating func parseHex4() throws(JSONParser.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("the document ends inside a \\u escape (truncated?)") }
            guard let digit = JSONEscape.hexValue(byte) else { throw error("invalid hex digit in \\u escape") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
