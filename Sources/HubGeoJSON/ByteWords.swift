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

    /// What an escaper writes in place of `length` bytes of the text (one byte, or a whole
    /// character it replaces).
    package struct Replacement {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        @usableFromInline let length: Int

        @inlinable @inline(__always)
        package init(_ literal: StaticString, replacing length: Int = 1) {
            bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            self.length = length
        }

        @inlinable @inline(__always)
        package init(_ bytes: UnsafeBufferPointer<UInt8>, replacing length: Int = 1) {
            self.bytes = bytes
            self.length = length
        }
    }

    /// The one scanning loop of the escapers (``JSONString``, and HubGeoExport's XML escaper,
    /// each with its own byte table and replacements): hands `text` to `output` in runs, with each
    /// byte that `classes` marks (a nonzero entry, masked by `mask`) replaced by what `replacement`
    /// gives for it and that kind, or kept where it gives nil. Plain words are passed over eight
    /// bytes at a time (``skipPlain(_:from:_:)``, one call per run of them); the bytes of a word
    /// with a candidate are looked at one by one.
    ///
    /// `@inlinable`, yet the release build does not inline it into the XML escaper, in HubGeoExport:
    /// there it is one call per field, with the replacements and runs through closures (objdump of
    /// the release binary). Measured, that costs nothing next to the per-character loop it replaced
    /// (release build, `export kml` of 200,000 organizations, perf: this loop 2.1 % and
    /// ``skipPlain(_:from:_:)`` 4.1 % of the user samples, against 2.0 % and 4.1 % for the XML
    /// escaper's own loop before; user CPU, medians of 9 alternating runs, 0.496 s before, 0.477 s
    /// after). What must not cross the boundary per word is the word test: see ``skipPlain(_:from:_:)``.
    @inlinable @inline(__always)
    package static func escape(_ text: UnsafeBufferPointer<UInt8>, _ candidates: Candidates, classes: UnsafeBufferPointer<UInt8>,
                               mask: UInt8 = 0xFF, into output: (UnsafeBufferPointer<UInt8>) -> Void,
                               replacement: (_ index: Int, _ kind: UInt8) -> Replacement?) {
        guard text.baseAddress != nil else { return }
        var start = 0
        var index = 0
        var wordEnd = 0  // the bytes before it are looked at one by one
        let count = text.count
        while index < count {
            if index >= wordEnd {
                index = skipPlain(text, from: index, candidates)
                if index >= count { break }
                wordEnd = index &+ 8
            }
            let kind = classes[Int(text[index])] & mask
            if kind == 0 {
                index &+= 1
                continue
            }
            guard let replaced = replacement(index, kind) else {
                index &+= 1
                continue
            }
            output(UnsafeBufferPointer(rebasing: text[start..<index]))
            output(replaced.bytes)
            index &+= replaced.length
            start = index
        }
        output(UnsafeBufferPointer(rebasing: text[start..<count]))
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
