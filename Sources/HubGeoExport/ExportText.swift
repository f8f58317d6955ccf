/// The coordinates the exporters write (their strings are escaped by ``JSONString`` and ``XMLText``).
package enum ExportText {
    /// A coordinate in degrees with at most 7 decimals (about 1 cm), trailing zeros removed,
    /// never in exponent notation and never `-0`.
    package static func coordinate(_ value: Double) -> String {
        precondition(value.isFinite && abs(value) <= 1_000, "coordinate out of range: \(value)")
        let scaled = Int64((value * 10_000_000).rounded())
        if scaled == 0 { return "0" }
        let magnitude = scaled.magnitude
        let whole = magnitude / 10_000_000
        var fraction = magnitude % 10_000_000
        var text = (scaled < 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 7
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    /// The value `coordinate(_:)` writes, as a number.
    package static func roundedCoordinate(_ value: Double) -> Double {
        let scaled = (value * 10_000_000).rounded()
        return scaled == 0 ? 0 : scaled / 10_000_000
    }
}
