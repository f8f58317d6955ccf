import Foundation

/// Degrees written for a request or a file: a fixed number of decimals at most, no exponent, no
/// trailing zeros, and never `-0`. The one writer of coordinates as text for Nominatim's
/// parameters (7 decimals, its own precision) and Level 1 entries (5, about a metre).
package enum DegreesText {
    /// `degrees` with at most `decimals` decimals.
    package static func string(_ degrees: Double, decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", degrees)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
