/// Unsigned LEB128, the "varint" of protocol buffers: 7 bits a byte, the lowest first, the high
/// bit set on every byte but the last. The vector tiles' protobuf and PMTiles directories and the
/// export's scratch records all write and read their numbers this way. Inlined into its callers:
/// the tile encoder writes several per feature.
package enum LEB128 {
    /// Appends `value`.
    @inlinable @inline(__always)
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The number at `position` in `bytes`, with `position` moved past it; nil (and `position`
    /// unmoved) when `bytes` ends before the number does.
    @inlinable @inline(__always)
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0, index = position
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                position = index
                return value
            }
            shift += 7
        }
        return nil
    }
}
