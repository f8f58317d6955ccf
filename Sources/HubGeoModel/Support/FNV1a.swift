/// The 64-bit FNV-1a hash: small, fast and stable across runs and platforms (unlike `Hasher`),
/// for identifiers and change detection, not for security. The one FNV-1a of hubgeo: the stable
/// id of an identity and the fingerprint of an organization are both fed through it.
package struct FNV1a {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01B3

    package private(set) var value: UInt64 = FNV1a.offsetBasis

    package init() {}

    /// Feeds one byte.
    @inline(__always)
    package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Feeds the bytes of a sequence (a string's UTF-8, a buffer).
    @inline(__always)
    package mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { add(byte) }
    }

    /// Feeds a text field of a record: its UTF-8 and the unit separator 0x1F; nil feeds the record
    /// separator 0x1E alone, so that no text and an empty text differ. The loop stays in this
    /// module, where `add` is specialized: a caller in another module makes one call per field.
    package mutating func addField(_ text: String?) {
        if var text {
            text.withUTF8 { add($0) }
            add(0x1F)
        } else {
            add(0x1E)
        }
    }

    /// Feeds the decimal digits of `number` as a text field, as `addField(String(number))`
    /// would, without making the String.
    package mutating func addField(_ number: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, most significant last
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for index in stride(from: count - 1, through: 0, by: -1) { add(buffer[index]) }
        }
        add(0x1F)
    }

    /// The hash of a whole byte sequence.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher.value
    }

    /// The hash of a buffer (a document body's bytes), computed in this module: a generic
    /// `hash` called from another module is not specialized there and costs a call per byte.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(bytesOf: bytes)
        return hasher.value
    }

    /// Feeds a buffer's bytes (a part of a document), computed in this module as ``hash(_:)`` is.
    package mutating func add(bytesOf buffer: UnsafeRawBufferPointer) {
        add(buffer)
    }

    /// A hash as 16 lower-case hex digits.
    package static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
