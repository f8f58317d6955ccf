/// The one reader of JSON bytes: white space (counting lines, ``JSONWhitespace``), strings,
/// numbers and literals, read or skipped, with the line and column of every byte and the syntax
/// errors of RFC 8259. ``JSONParser`` builds its values with it, `validate`'s positions walk a
/// document with it, and the Level 1 stream finds where values begin and end with it, so that a
/// large document can be parsed one record at a time. Skipping vouches only for structure:
/// strings are skipped escape-aware, containers by depth, and every range it returns is then
/// parsed, which checks the content; a skip that meets a surprise returns nil.
package struct JSONScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    package internal(set) var position = 0
    /// The line of `position` (1-based), and the offset where that line starts.
    package internal(set) var line = 1
    package internal(set) var lineStart = 0
    /// When set, skipping a large value lets the kernel reclaim the pages already passed
    /// (``MappedFile/releasePages(of:before:)``): for a first pass over a mapped file.
    package var releasesPagesBehind = false
    private var releasedUpTo = 0
    /// The bytes of a string with escapes, reused from one string to the next.
    private var scratch: [UInt8] = []

    /// A scanner at the start of `bytes`, after a UTF-8 byte order mark.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3; lineStart = 3 }
    }

    /// A scanner that starts at `position`, which is at `line` and `column` of the document.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int, line: Int, column: Int) {
        self.bytes = bytes
        self.position = position
        self.line = line
        lineStart = position - column + 1
    }

    /// The column of `position` (1-based, in bytes), as syntax errors count it.
    package var column: Int { position - lineStart + 1 }

    package var atEnd: Bool { position >= bytes.count }

    /// The byte at `position`; nil at the end.
    package var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    package mutating func skipWhitespace() {
        JSONWhitespace.skip(bytes, position: &position, line: &line, lineStart: &lineStart)
    }

    /// Consumes `byte` (after white space); false when something else comes.
    package mutating func expect(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Moves past a value that another reader consumed: to `position`, which is on `line`, a
    /// line that starts at offset `lineStart`.
    package mutating func advance(to position: Int, line: Int, lineStart: Int) {
        self.position = position
        self.line = line
        self.lineStart = lineStart
    }

    /// Peeks at the next byte after white space.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return current
    }

    // MARK: - Skipping

    /// Skips one value and returns its byte range; nil when the bytes end first.
    package mutating func skipValue() -> Range<Int>? {
        skipWhitespace()
        let start = position
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            guard skipString() else { return nil }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return nil }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if releasesPagesBehind && position - releasedUpTo >= 8 << 20 {
                        MappedFile.releasePages(of: bytes, before: position)
                        releasedUpTo = position
                    }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                case 0x0A, 0x0D:
                    position += JSONWhitespace.lineEndLength(bytes, at: position) - 1
                    line += 1
                    lineStart = position + 1
                default:
                    break
                }
                position += 1
                if depth == 0 { return start..<position }
            }
            return nil
        default:
            // A number, true, false or null: up to the next delimiter.
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0D, 0x0A:
                    return start < position ? start..<position : nil
                default:
                    position += 1
                }
            }
        }
        return start < position ? start..<position : nil
    }

    /// Skips a string starting at `position` (on its quote); false when it does not end on its line.
    package mutating func skipString() -> Bool {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""):
                position += 1
                return true
            case 0x0A, 0x0D: return false  // a raw line end inside a string is invalid JSON
            default: position += 1
            }
        }
        return false
    }

    // MARK: - Reading

    /// The syntax error `reason` at `offset` (else at `position`), with its line and column.
    package func error(_ reason: String, at offset: Int? = nil) -> JSONParser.SyntaxError {
        JSONParser.SyntaxError(line: line, column: (offset ?? position) - lineStart + 1, reason: reason)
    }

    /// Consumes `literal` (true, false, null) at `position`.
    package mutating func readLiteral(_ literal: StaticString) throws(JSONParser.SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            guard position + index < bytes.count, bytes[position + index] == start[index] else {
                throw error("invalid literal (expected \(literal))")
            }
        }
        position += count
    }

    /// Consumes `null` when it comes next (after white space); false for anything else.
    package mutating func readNull() throws(JSONParser.SyntaxError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    /// Reads the number at `position` with JSON's grammar.
    package mutating func readNumber() throws(JSONParser.SyntaxError) -> Double {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "I") || current == UInt8(ascii: "N") { throw error("NaN and Infinity are not JSON numbers") }
        guard let first = current, Self.isDigit(first) else { throw error("a number needs digits after '-'") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = current, Self.isDigit(next) { throw error("numbers may not have leading zeros") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let byte = current, Self.isDigit(byte) else { throw error("a number needs digits after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, Self.isDigit(byte) else { throw error("a number needs digits in its exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
    }

    /// Reads the string at `position` (on its opening quote), escapes decoded. A string without
    /// escapes is made straight from its bytes.
    package mutating func readString() throws(JSONParser.SyntaxError) -> String {
        let openingQuote = position
        position += 1
        var runStart = position
        var escaped = false
        while true {
            guard let byte = current else {
                throw error("the document ends inside a string that starts at column \(openingQuote - lineStart + 1) (truncated?)")
            }
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                position += 1
                let string: String?
                if escaped {
                    scratch.append(contentsOf: run)
                    string = String(validating: scratch, as: UTF8.self)
                } else {
                    string = String(validating: run, as: UTF8.self)
                }
                guard let string else { throw error("the string is not valid UTF-8", at: openingQuote) }
                return string
            case UInt8(ascii: "\\"):
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                try readEscape()
                runStart = position
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "a string may not span lines (unescaped newline)" : "unescaped control character in a string")
            default:
                position += 1
            }
        }
    }

    private mutating func readEscape() throws(JSONParser.SyntaxError) {
        guard let byte = current else { throw error("the document ends inside an escape (truncated?)") }
        position += 1
        if let character = JSONEscape.character(for: byte) {
            scratch.append(character)
            return
        }
        switch byte {
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            throw error("invalid escape \\\(Self.describe(byte))")
        }
    }

    private mutating func readHex4() throws(JSONParser.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("the document ends inside a \\u escape (truncated?)") }
            guard let digit = JSONEscape.hexValue(byte) else { throw error("invalid hex digit in \\u escape") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A byte as an error message shows it: 'x', or byte 0x1F.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
