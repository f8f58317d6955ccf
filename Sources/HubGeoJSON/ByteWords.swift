/// Eight bytes of text at a time, for the escapers' fast paths (``JSONString`` and the exports'
/// XML escaper): a word in which no byte needs a look is passed over at once. Each test is
/// nonzero when some byte of `x` is such a byte (bytes that carry no borrow are exact).
package enum ByteWords {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The 8 bytes of `base + offset`, the first in the lowest byte.
    @inlinable @inline(__always)
    package static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// A control character (below 0x20) or a byte of a multi-byte character in `x`.
    @inlinable @inline(__always)
    package static func controlOrNonASCII(_ x: UInt64) -> UInt64 { ((x &- ones &* 0x20) | x) & highs }

    /// `byte` in `x`.
    @inlinable @inline(__always)
    package static func has(_ byte: UInt8, _ x: UInt64) -> UInt64 {
        let difference = x ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }
}
