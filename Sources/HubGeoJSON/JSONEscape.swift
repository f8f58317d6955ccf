/// The escapes of JSON strings (RFC 8259, section 7), shared by the full parser and the
/// byte-level record decoder so that both read a string to the same bytes.
package enum JSONEscape {
    /// The byte that the one-character escape `\code` stands for (`n` → line feed), or nil when
    /// `code` is `u` (a `\uXXXX` escape) or not an escape at all.
    @inline(__always)
    package static func character(for code: UInt8) -> UInt8? {
        switch code {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of one hexadecimal digit of a `\uXXXX` escape (either case), or nil.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
