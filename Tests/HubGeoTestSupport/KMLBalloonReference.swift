import Foundation
import HubGeo

/// The balloon HTML that a KML reader (GDAL) should find in a placemark's `description`, built
/// here from the properties, independently of the writer's one-pass escaping: the tests' reference.
package enum KMLBalloonReference {
    package static func html(_ properties: ExportProperties) -> String {
        func escaped(_ text: String) -> String {
            [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")].reduce(text) {
                $0.replacingOccurrences(of: $1.0, with: $1.1)
            }
        }
        var lines: [String] = []
        if let town = properties.string("localizedTown") ?? properties.string("town") { lines.append("Town: " + escaped(town)) }
        if let country = properties.string("localizedCountry") { lines.append("Country: " + escaped(country)) }
        if let website = properties.string("website") {
            let lowered = website.lowercased()
            if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
                lines.append("Website: <a href=\"\(escaped(website))\">\(escaped(website))</a>")
            } else {
                lines.append("Website: " + escaped(website))
            }
        }
        var text = lines.joined(separator: "<br/>")
        if let remark = properties.string("remark") {
            text += (text.isEmpty ? "" : "<br/>") + "<p>" + escaped(remark).replacingOccurrences(of: "\n", with: "<br/>") + "</p>"
        }
        return text
    }
}
