/// The 64-bit FNV-1a hash: small, fast and stable across runs and platforms (unlike `Hasher`),
/// for identifiers and change detection, not for security. The one FNV-1a of hubgeo: the stable
/// id of an identity and the fingerprint of an organization are both fed through it.
///
/// Inlinable: the import hashes every organization's bytes through it from another module, and a
/// generic `add` that is not specialized there costs a protocol call per byte.
package struct FNV1a {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01B3

    @usableFromInline var state: UInt64 = FNV1a.offsetBasis

    /// The hash of the bytes fed so far.
    @inlinable package var value: UInt64 { state }

    @inlinable package init() {}

    /// Feeds one byte.
    @inlinable @inline(__always)
    package mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* Self.prime
    }

    /// Feeds the bytes of a sequence (a string's UTF-8, a buffer).
    @inlinable @inline(__always)
    package mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { add(byte) }
    }

    /// The hash of a whole byte sequence.
    @inlinable
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher.value
    }

    /// A hash as 16 lower-case hex digits.
    package static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
