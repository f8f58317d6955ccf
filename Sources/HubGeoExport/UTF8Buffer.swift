import HubGeoDatabase
import HubGeoJSON
import HubGeoModel
/// UTF-8 text built in one reusable byte buffer: what the exporters write through. Escaping
/// goes through byte tables and numbers are formatted here, so a feature costs no `String`.
/// A class over one allocation: appends are plain copies, with no copy-on-write checks.
final class UTF8Buffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 128 * 1024) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    func removeAll() {
        count = 0
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress, text.count > 0 else { return }
        reserve(text.count)
        (storage + count).update(from: base, count: text.count)
        count += text.count
    }

    /// Named apart from `append(_: StaticString)`, so that a choice between two literals
    /// (`pretty ? "a" : "b"`) stays a static string instead of becoming a `String`.
    func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    // MARK: Numbers

    /// A decimal integer.
    func append(integer value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        reserve(digits)
        var remaining = magnitude
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            storage[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += digits
    }

    /// A coordinate as ``ExportText/coordinate(_:)`` writes it: at most 7 decimals, trailing
    /// zeros removed, never an exponent, never `-0`.
    func append(coordinate value: Double) {
        precondition(value.isFinite && abs(value) <= 1_000, "coordinate out of range: \(value)")
        let scaled = Int64((value * 10_000_000).rounded())
        if scaled == 0 {
            append(byte: UInt8(ascii: "0"))
            return
        }
        if scaled < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = scaled.magnitude
        append(integer: Int(magnitude / 10_000_000))
        var fraction = magnitude % 10_000_000
        guard fraction != 0 else { return }
        var digits = 7
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        append(byte: UInt8(ascii: "."))
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            append(byte: UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    // MARK: Escaping

    // Eight bytes at a time: a word with no byte that needs a look is copied as it is. Each test
    // is nonzero when some byte of `x` is such a byte (bytes that carry no borrow are exact).
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func word(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(text.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self))
    }

    /// A control character (below 0x20) or a byte of a multi-byte character.
    @inline(__always)
    private static func controlOrNonASCII(_ x: UInt64) -> UInt64 { ((x &- ones &* 0x20) | x) & highs }

    @inline(__always)
    private static func has(_ byte: UInt8, _ x: UInt64) -> UInt64 {
        let difference = x ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// True when none of the 8 bytes needs anything in XML text (a non-ASCII byte may: U+FFFE).
    @inline(__always)
    private static func isPlainXML(_ x: UInt64) -> Bool {
        controlOrNonASCII(x) | has(0x26, x) | has(0x3C, x) | has(0x3E, x) | has(0x22, x) | has(0x27, x) == 0
    }

    /// `text` as a JSON string literal, quotes included, escaped for `context` by the one JSON
    /// escaper, ``JSONString``.
    @inline(__always)
    func append(jsonString text: UnsafeBufferPointer<UInt8>, for context: JSONString.Context) {
        append(byte: UInt8(ascii: "\""))
        JSONString.escape(text, for: context) { append($0) }
        append(byte: UInt8(ascii: "\""))
    }

    /// What each byte needs in XML text: 0 nothing, 1 an escape, 2 a look at U+FFFE/U+FFFF.
    private static let xmlClass: [UInt8] = (0..<256).map { byte in
        byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 ? 1 : byte == 0xEF ? 2 : 0
    }

    /// `text` escaped for XML as ``ExportText/xmlEscaped(_:)`` escapes it. With `html`, the text
    /// is first HTML-escaped as ``KMLWriter`` escapes the balloon's values (`'` as `&#39;`),
    /// and with `breaks` a line feed becomes `<br/>`: the XML escaping of that HTML, in one pass.
    func append(xmlEscaped text: UnsafeBufferPointer<UInt8>, html: Bool = false, breaks: Bool = false) {
        Self.xmlClass.withUnsafeBufferPointer { table in
            var start = 0
            var index = 0
            let count = text.count
            while index < count {
                if index &+ 8 <= count && Self.isPlainXML(Self.word(text, at: index)) {
                    index &+= 8
                    continue
                }
                let byte = text[index]
                let kind = table[Int(byte)]
                if kind == 0 {
                    index += 1
                    continue
                }
                if kind == 2 {
                    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) become U+FFFD.
                    guard index + 2 < count, text[index + 1] == 0xBF, text[index + 2] == 0xBE || text[index + 2] == 0xBF else {
                        index += 1
                        continue
                    }
                    append(UnsafeBufferPointer(rebasing: text[start..<index]))
                    append("\u{FFFD}")
                    index += 3
                    start = index
                    continue
                }
                append(UnsafeBufferPointer(rebasing: text[start..<index]))
                switch byte {
                case 0x26: html ? append("&amp;amp;") : append("&amp;")
                case 0x3C: html ? append("&amp;lt;") : append("&lt;")
                case 0x3E: html ? append("&amp;gt;") : append("&gt;")
                case 0x22: html ? append("&amp;quot;") : append("&quot;")
                case 0x27: html ? append("&amp;#39;") : append("&apos;")
                case 0x09: append("&#9;")
                case 0x0A: breaks ? append("&lt;br/&gt;") : append("&#10;")
                case 0x0D: append("&#13;")
                default: append("\u{FFFD}")
                }
                index += 1
                start = index
            }
            append(UnsafeBufferPointer(rebasing: text[start..<count]))
        }
    }

    /// Runs `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }
}
