/// Finds where values begin and end in JSON bytes without building them, so that a large
/// document can be parsed one record at a time. It vouches only for structure: strings are
/// skipped escape-aware, containers by depth; every range it returns is then parsed by
/// ``JSONParser``, which checks the content. Any surprise returns nil, and the caller falls
/// back to parsing the whole document (which then reports the exact error).
package struct JSONScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    package private(set) var position = 0
    /// The line of `position` (1-based), and the offset where that line starts.
    package private(set) var line = 1
    package private(set) var lineStart = 0
    /// When set, skipping a large value lets the kernel reclaim the pages already passed
    /// (``MappedFile/releasePages(of:before:)``): for a first pass over a mapped file.
    package var releasesPagesBehind = false
    private var releasedUpTo = 0

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

    /// The column of `position` (1-based), as ``JSONParser`` counts it.
    package var column: Int { position - lineStart + 1 }

    package var atEnd: Bool { position >= bytes.count }

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
        return position < bytes.count ? bytes[position] : nil
    }

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
    private mutating func skipString() -> Bool {
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
}
