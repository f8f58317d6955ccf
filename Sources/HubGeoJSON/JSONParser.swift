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
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.scanner.position = 3 }
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
        reader.scanner = JSONScanner(bytes, position: 0, line: line, column: column)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the end of the value") }
        return value
    }
}

/// The structure of a document (objects, arrays, nesting depth) over the one reader of its
/// bytes, ``JSONScanner``, which reads the white space, strings, numbers and literals.
private struct Reader {
    var scanner: JSONScanner
    let maxDepth: Int
    /// False: objects and arrays are checked but come back empty (``JSONParser/validate(_:)``).
    let keepsValues: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, keepsValues: Bool) {
        scanner = JSONScanner(bytes, position: 0, line: 1, column: 1)
        self.maxDepth = maxDepth
        self.keepsValues = keepsValues
    }

    var position: Int { scanner.position }
    var current: UInt8? { scanner.current }

    func error(_ reason: String) -> JSONParser.SyntaxError { scanner.error(reason) }

    mutating func skipWhitespace() { scanner.skipWhitespace() }

    mutating func advance() { scanner.position += 1 }

    mutating func parseValue(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the document ends where a value was expected (truncated?)") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try scanner.readString())
        case UInt8(ascii: "t"): try scanner.readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try scanner.readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try scanner.readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try scanner.readNumber())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers")
        default:
            throw error("unexpected character \(JSONScanner.describe(byte)) where a value was expected")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        advance()
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == nil { throw error("the document ends inside an object (truncated?)") }
                if current == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("expected a quoted member name, found \(JSONScanner.describe(current!))")
            }
            let memberLine = scanner.line
            let key = try scanner.readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                if current == nil { throw error("the document ends inside an object (truncated?)") }
                throw error("expected ':' after member name \"\(key)\"")
            }
            advance()
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if keepsValues { members.append(JSONMember(key: key, value: value, line: memberLine)) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                return .object(members)
            case nil: throw error("the document ends inside an object (truncated?)")
            case let byte?: throw error("expected ',' or '}' after a member, found \(JSONScanner.describe(byte))")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        advance()
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            let element = try parseValue(depth: depth)
            if keepsValues { elements.append(element) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                return .array(elements)
            case nil: throw error("the document ends inside an array (truncated?)")
            case let byte?: throw error("expected ',' or ']' after an element, found \(JSONScanner.describe(byte))")
            }
        }
    }
}
