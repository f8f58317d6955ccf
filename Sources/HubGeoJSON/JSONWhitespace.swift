/// JSON's white space (space, tab, carriage return, line feed), skipped while keeping count of
/// lines: the one scanner of it, shared by ``JSONParser``, ``JSONScanner`` and the Level 1 record
/// decoder, so that all three report the same line and column for a byte.
package enum JSONWhitespace {
    /// Advances `position` past white space in `bytes`; each line feed increments `line` and
    /// sets `lineStart` to the position after it.
    @inline(__always)
    package static func skip(_ bytes: UnsafeBufferPointer<UInt8>, position: inout Int, line: inout Int, lineStart: inout Int) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            default: return
            }
        }
    }
}
