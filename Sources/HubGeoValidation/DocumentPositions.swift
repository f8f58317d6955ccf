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
            scanner.skipBOM()
            scanner.skipWhitespace()
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

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var line = 1
        var lineStart = 0
        /// The last column counted, on the line starting at `countedLineStart`: at byte `countedOffset`.
        var countedLineStart = -1
        var countedOffset = 0
        var countedColumn = 1
        var spans: [String: Span] = [:]

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func skipBOM() {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3; lineStart = 3 }
        }

        /// The column of the byte at `offset` on the current line, in characters: counted on from
        /// the last one asked for on this line (the scan asks in increasing order), so each byte
        /// is counted once.
        mutating func column(of offset: Int) -> Int {
            if countedLineStart != lineStart || offset < countedOffset {
                countedLineStart = lineStart
                countedOffset = lineStart
                countedColumn = 1
            }
            while countedOffset < offset {
                if bytes[countedOffset] & 0xC0 != 0x80 { countedColumn += 1 }
                countedOffset += 1
            }
            return countedColumn
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            JSONWhitespace.skip(bytes, position: &position, line: &line, lineStart: &lineStart)
        }

        /// Scans the value at `position`, recording it under `path` (a member's span is recorded
        /// by its object, from the key). Returns where it starts (for an object: its first key,
        /// when it has one and `elementStart`) and where its last character is; nil on bad JSON.
        mutating func value(path: String, elementStart: Bool) -> (start: (Int, Int), end: (Int, Int))? {
            let start = (line, column(of: position))
            var recordedStart = start
            switch current {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if current == UInt8(ascii: "}") { break }
                var first = true
                while true {
                    skipWhitespace()
                    guard current == UInt8(ascii: "\"") else { return nil }
                    let keyStart = (line, column(of: position))
                    let keyBegin = position
                    guard skipString() else { return nil }
                    let key = Self.decodeKey(UnsafeBufferPointer(rebasing: bytes[keyBegin..<position]))
                    if first, elementStart { recordedStart = keyStart }
                    first = false
                    skipWhitespace()
                    guard current == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipWhitespace()
                    let memberPath = JSONPath.member(path, key)
                    guard let member = value(path: memberPath, elementStart: false) else { return nil }
                    spans[memberPath] = Span(line: keyStart.0, column: keyStart.1, endLine: member.end.0, endColumn: member.end.1)
                    skipWhitespace()
                    if current == UInt8(ascii: ",") { position += 1; continue }
                    guard current == UInt8(ascii: "}") else { return nil }
                    break
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") { break }
                var index = 0
                while true {
                    skipWhitespace()
                    let elementPath = JSONPath.element(path, index)
                    guard let element = value(path: elementPath, elementStart: true) else { return nil }
                    spans[elementPath] = Span(line: element.start.0, column: element.start.1, endLine: element.end.0,
                                              endColumn: element.end.1)
                    index += 1
                    skipWhitespace()
                    if current == UInt8(ascii: ",") { position += 1; continue }
                    guard current == UInt8(ascii: "]") else { return nil }
                    break
                }
            case UInt8(ascii: "\""):
                guard skipString() else { return nil }
                let end = (line, column(of: position - 1))
                if path.isEmpty { spans[""] = Span(line: start.0, column: start.1, endLine: end.0, endColumn: end.1) }
                return (start, end)
            case nil:
                return nil
            default:
                // A number, true, false or null: up to the next delimiter.
                while let byte = current, !Self.delimiters.contains(byte) { position += 1 }
                let end = (line, column(of: position - 1))
                if path.isEmpty { spans[""] = Span(line: start.0, column: start.1, endLine: end.0, endColumn: end.1) }
                return (start, end)
            }
            // At the closing bracket.
            let end = (line, column(of: position))
            position += 1
            if path.isEmpty { spans[""] = Span(line: start.0, column: start.1, endLine: end.0, endColumn: end.1) }
            return (recordedStart, end)
        }

        static let delimiters: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")]

        /// Moves past the string at `position` (at its opening quote); false when it does not end.
        mutating func skipString() -> Bool {
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }

        /// A key's text from its quoted bytes (escapes decoded by the JSON parser).
        static func decodeKey(_ quoted: UnsafeBufferPointer<UInt8>) -> String {
            if !quoted.contains(UInt8(ascii: "\\")) {
                return String(decoding: UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast()), as: UTF8.self)
            }
            if case .string(let key)? = try? JSONParser().parse(Data(quoted)) { return key }
            return String(decoding: quoted, as: UTF8.self)
        }
    }
}
