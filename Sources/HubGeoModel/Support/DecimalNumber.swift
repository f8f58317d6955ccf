/// A number written in decimal notation, the one way hubgeo reads a number a person typed (an
/// argument, a query parameter, a setting): an optional sign, digits with an optional fraction,
/// an optional exponent (`-33.87`, `.5`, `1e3`). Swift's `Double(String)` also takes
/// hexadecimal (`0x10`, `0x1p4`), `inf` and `nan`; a coordinate or a duration written so is a
/// mistake or a probe, and is refused.
package enum DecimalNumber {
    /// The finite value of `text` in decimal notation, else nil.
    package static func parse(_ text: some StringProtocol) -> Double? {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var digits = 0
        while let byte = bytes.first, isDigit(byte) { bytes.removeFirst(); digits += 1 }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            while let byte = bytes.first, isDigit(byte) { bytes.removeFirst(); digits += 1 }
        }
        guard digits > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
            var exponentDigits = 0
            while let byte = bytes.first, isDigit(byte) { bytes.removeFirst(); exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard bytes.isEmpty, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
