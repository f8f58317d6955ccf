/// Parses the text `ogrinfo -ro -al` prints: features, their fields and point geometry.
package enum OGRInfoReader {
    package struct Feature {
        package var layer: String
        package var fields: [String: String] = [:]
        package var longitude: Double?
        package var latitude: Double?
    }

    package static func features(_ text: String) -> [Feature] {
        var features: [Feature] = []
        var current: Feature?
        var lastField: String?
        let featureLine = /^OGRFeature\((.*)\):\d+$/
        let fieldLine = /^  ([A-Za-z_][A-Za-z0-9_]*) \(([A-Za-z0-9]+)\) = (.*)$/
        let pointLine = /^  POINT \((-?[0-9.e+-]+) (-?[0-9.e+-]+)\)$/
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let match = line.wholeMatch(of: featureLine) {
                if let current { features.append(current) }
                current = Feature(layer: String(match.1))
                lastField = nil
            } else if current != nil, let match = line.wholeMatch(of: pointLine) {
                current?.longitude = Double(match.1)
                current?.latitude = Double(match.2)
                lastField = nil
            } else if current != nil, let match = line.wholeMatch(of: fieldLine) {
                if match.3 != "(null)" { current?.fields[String(match.1)] = String(match.3) }
                lastField = String(match.1)
            } else if current != nil, line.hasPrefix("  Style = ") {
                current?.fields["Style"] = String(line.dropFirst("  Style = ".count))
                lastField = nil
            } else if let field = lastField, !line.isEmpty {
                current?.fields[field, default: ""] += "\n" + line  // a value that spans lines
            }
        }
        if let current { features.append(current) }
        return features
    }
}
