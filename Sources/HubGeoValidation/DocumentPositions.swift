import Foundation
import HubGeoJSON

/// Where each value of a JSON document lies, by JSON path (`clubs[3].coordinates.latitude`), so
/// that every diagnostic gets a line and a column, and an end: a member starts at its key's
/// opening quote, an array element at its value (an object element at its first member's key,
/// the line `validate` has always given an entry), and each ends at its value's last character.
/// Columns count characters (Unicode scalars), from 1; lines end at `\r\n`, `\n` or a lone `\r`
/// (``JSONWhitespace``). Built only for documents that parsed, from their bytes, in one pass
/// whose work is linear in their size whatever their layout: a column is counted on from the
/// previous one on its line, not from the line's start (which made a minified file of 4,000
/// organizations take 33 s).
struct DocumentPositions {
    struct Span: Equatable {
        var line: Int
        var column: Int
        var endLine: Int
        var endColumn: Int
    }

    private var spans: [String: Span] = [:]

    /// Nil when the bytes are not one JSON value (they parsed before, so this does not happen).
    init?(_ data: Data) {
        let found: [String: Span]? = data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            scanner.json.skipWhitespace()
            guard scanner.value(path: "", elementStart: false) != nil else { return nil }
            return scanner.spans
        }
        guard let found else { return nil }
        spans = found
    }

    /// The span of the value at `path`, else of its nearest ancestor that exists.
    func span(at path: String) -> Span? {
        var path: String? = path
        while let current = path {
            if let span = spans[current] { return span }
            path = JSONPath.parent(of: current)
        }
        return nil
    }

    /// A walk over the bytes with the one reader of JSON bytes (``JSONScanner``), counting columns
    /// in characters.
    private struct Scanner {
        var json: JSONScanner
        /// The last column counted, on the line starting at `countedLineStart`: at byte `countedOffset`.
        var countedLineStart = -1
        var countedOffset = 0
        var countedColumn = 1
        var spans: [String: Span] = [:]

        /// A walk from the start of `bytes`, after a UTF-8 byte order mark.
        init(bytes: UnsafeBufferPointer<UInt8>) {
            json = JSONScanner(bytes)
        }

        /// The column of the byte at `offset` on the current line, in characters: counted on from
        /// the last one asked for on this line (the scan asks in increasing order), so each byte
        /// is counted once.
        mutating func column(of offset: Int) -> Int {
            if countedLineStart != json.lineStart || offset < countedOffset {
                countedLineStart = json.lineStart
                countedOffset = json.lineStart
                countedColumn = 1
            }
            while countedOffset < offset {
                if json.bytes[countedOffset] & 0xC0 != 0x80 { countedColumn += 1 }
                countedOffset += 1
            }
            return countedColumn
        }

        /// Where the walk is: its line and its column in characters.
        mutating func here() -> (Int, Int) { (json.line, column(of: json.position)) }

        /// Scans the value at the reader's position, recording it under `path` (a member's span is
        /// recorded by its object, from the key). Returns where it starts (for an object: its first
        /// key, when it has one and `elementStart`) and where its last character is; nil on bad JSON.
        mutating func value(path: String, elementStart: Bool) -> (start: (Int, Int), end: (Int, Int))? {
            let start = here()
            var recordedStart = start
            let closing: UInt8
            switch json.current {
            case UInt8(ascii: "{"):
                closing = UInt8(ascii: "}")
                _ = json.expect(UInt8(ascii: "{"))
                if json.peek() == closing { break }
                var first = true
                while true {
                    json.skipWhitespace()
                    guard json.current == UInt8(ascii: "\"") else { return nil }
                    let keyStart = here()
                    let keyBegin = json.position
                    guard json.skipString() else { return nil }
                    let key = Self.decodeKey(UnsafeBufferPointer(rebasing: json.bytes[keyBegin..<json.position]))
                    if first, elementStart { recordedStart = keyStart }
                    first = false
                    guard json.expect(UInt8(ascii: ":")) else { return nil }
                    json.skipWhitespace()
                    let memberPath = JSONPath.member(path, key)
                    guard let member = value(path: memberPath, elementStart: false) else { return nil }
                    spans[memberPath] = Span(line: keyStart.0, column: keyStart.1, endLine: member.end.0, endColumn: member.end.1)
                    if json.expect(UInt8(ascii: ",")) { continue }
                    guard json.peek() == closing else { return nil }
                    break
                }
            case UInt8(ascii: "["):
                closing = UInt8(ascii: "]")
                _ = json.expect(UInt8(ascii: "["))
                if json.peek() == closing { break }
                var index = 0
                while true {
                    json.skipWhitespace()
                    let elementPath = JSONPath.element(path, index)
                    guard let element = value(path: elementPath, elementStart: true) else { return nil }
                    spans[elementPath] = Span(line: element.start.0, column: element.start.1, endLine: element.end.0,
                                              endColumn: element.end.1)
                    index += 1
                    if json.expect(UInt8(ascii: ",")) { continue }
                    guard json.peek() == closing else { return nil }
                    break
                }
            case nil:
                return nil
            default:
                // A string, number, true, false or null.
                guard json.skipValue() != nil else { return nil }
                let end = (json.line, column(of: json.position - 1))
                if path.isEmpty { spans[""] = Span(line: start.0, column: start.1, endLine: end.0, endColumn: end.1) }
                return (start, end)
            }
            // At the closing bracket.
            let end = here()
            _ = json.expect(closing)
            if path.isEmpty { spans[""] = Span(line: start.0, column: start.1, endLine: end.0, endColumn: end.1) }
            return (recordedStart, end)
        }

        /// A key's text from its quoted bytes (escapes decoded by the one reader).
        static func decodeKey(_ quoted: UnsafeBufferPointer<UInt8>) -> String {
            if !quoted.contains(UInt8(ascii: "\\")) {
                return String(decoding: UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast()), as: UTF8.self)
            }
            var reader = JSONScanner(quoted, position: 0, line: 1, column: 1)
            return (try? reader.readString()) ?? String(decoding: quoted, as: UTF8.self)
        }
    }
}
