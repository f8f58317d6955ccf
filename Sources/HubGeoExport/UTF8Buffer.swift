import HubGeoJSON
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

    /// A copy of bytes the buffer holds already, `range` of them (text escaped once and written twice).
    func append(copyOf range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the buffer")
        reserve(range.count)
        (storage + count).update(from: storage + range.lowerBound, count: range.count)
        count += range.count
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

    /// `text` as a JSON string literal, quotes included, escaped for `context` by the one JSON
    /// escaper, ``JSONString``.
    @inline(__always)
    func append(jsonString text: UnsafeBufferPointer<UInt8>, for context: JSONString.Context) {
        append(byte: UInt8(ascii: "\""))
        JSONString.escape(text, for: context) { append($0) }
        append(byte: UInt8(ascii: "\""))
    }

    /// `text` escaped for XML by the one XML escaper, ``XMLText`` (with `html`, as HTML inside
    /// XML text; with `breaks`, line feeds as `<br/>`).
    @inline(__always)
    func append(xmlEscaped text: UnsafeBufferPointer<UInt8>, html: Bool = false, breaks: Bool = false) {
        XMLText.escape(text, html: html, breaks: breaks) { append($0) }
    }

    /// Runs `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }
}
