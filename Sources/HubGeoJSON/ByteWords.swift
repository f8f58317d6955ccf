/// Eight bytes of text at a time, for the escapers' fast paths (``JSONString`` and the exports'
/// XML escaper): words in which no byte needs a look are passed over at once. Each test is
/// nonzero when some byte of `x` is such a byte (bytes that carry no borrow are exact).
package enum ByteWords {
    /// The bytes that may need a look.
    package enum Candidates: Sendable {
        /// Control characters, `"`, `\` and any non-ASCII byte (JSON strings).
        case json
        /// As ``json``, and `<`, `>`, `&` (JSON inside a `<script>` element).
        case scriptElementJSON
        /// Control characters, `&`, `<`, `>`, `"`, `'` and any non-ASCII byte (XML text).
        case xml
    }

    /// The index of the first 8-byte word at or after `index` in which some byte is one of
    /// `candidates`, or of the last, shorter piece of `text`. One call passes over a run of plain
    /// words: the XML escaper in HubGeoExport calls it across modules, where the word tests are
    /// not inlined (measured, release build, `export kml` of 200,000 organizations, user CPU, 5 runs:
    /// a call per word 0.69-0.78 s, this 0.57-0.63 s, the loop before it was shared 0.55-0.62 s).
    package static func skipPlain(_ text: UnsafeBufferPointer<UInt8>, from index: Int, _ candidates: Candidates) -> Int {
        switch candidates {
        case .json: skip(text, from: index) { controlOrNonASCII($0) | has(0x22, $0) | has(0x5C, $0) }
        case .scriptElementJSON:
            skip(text, from: index) { controlOrNonASCII($0) | has(0x22, $0) | has(0x5C, $0) | has(0x26, $0) | has(0x3C, $0) | has(0x3E, $0) }
        case .xml:
            skip(text, from: index) { controlOrNonASCII($0) | has(0x26, $0) | has(0x3C, $0) | has(0x3E, $0) | has(0x22, $0) | has(0x27, $0) }
        }
    }

    @inline(__always)
    private static func skip(_ text: UnsafeBufferPointer<UInt8>, from start: Int, _ found: (UInt64) -> UInt64) -> Int {
        guard let base = text.baseAddress else { return start }
        var index = start
        while index &+ 8 <= text.count
                && found(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))) == 0 {
            index &+= 8
        }
        return index
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// A control character (below 0x20) or a byte of a multi-byte character in `x`.
    @inline(__always)
    private static func controlOrNonASCII(_ x: UInt64) -> UInt64 { ((x &- ones &* 0x20) | x) & highs }

    /// `byte` in `x`.
    @inline(__always)
    private static func has(_ byte: UInt8, _ x: UInt64) -> UInt64 {
        let difference = x ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }
}
