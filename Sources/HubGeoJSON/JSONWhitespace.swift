/// JSON's white space (space, tab, carriage return, line feed), skipped while keeping count of
/// lines: the one scanner of it, shared by ``JSONParser``, ``JSONScanner``, the Level 1 record
/// decoder and `validate`'s positions, so that all report the same line and column for a byte.
/// A line ends at `\r\n`, `\n` or a lone `\r` (a file saved by an old Mac editor), as editors
/// and GitHub count lines.
package enum JSONWhitespace {
    /// Advances `position` past white space in `bytes`; each line end increments `line` and
    /// sets `lineStart` to the position after it.
    @inline(__always)
    package static func skip(_ bytes: UnsafeBufferPointer<UInt8>, position: inout Int, line: inout Int, lineStart: inout Int) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09: position += 1
            case 0x0A, 0x0D:
                position += lineEndLength(bytes, at: position)
                line += 1
                lineStart = position
            default: return
            }
        }
    }

    /// The length of the line end at `position` (a `\r` or `\n` there): 2 for `\r\n`, else 1.
    @inline(__always)
    package static func lineEndLength(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Int {
        bytes[position] == 0x0D && position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1
    }
}
