/// Writes organizations as an RFC 7946 GeoJSON `FeatureCollection`, one feature at a time.
///
/// Each feature has the organization's stable id, a Point `[longitude, latitude]` (7 decimals
/// at most) and the ``ExportProperties``. The collection's `bbox` (west, south, east, north of
/// the points as written) comes after `features`, which RFC 7946 allows, so that nothing has
/// to be held back while streaming; an empty collection has none. No `crs` member.
///
/// Compact output puts each feature on a line of its own; `pretty` indents everything.
public final class GeoJSONWriter: OrganizationWriter {
    private let sink: ExportSink
    private let language: String?
    private let pretty: Bool
    private var count = 0
    private var west = Double.infinity, south = Double.infinity
    private var east = -Double.infinity, north = -Double.infinity

    /// `language` picks the remark (see ``ExportProperties``).
    public init(sink: ExportSink, language: String? = nil, pretty: Bool = false) {
        self.sink = sink
        self.language = language
        self.pretty = pretty
    }

    /// The number of features written so far.
    public var featureCount: Int { count }

    public func begin() throws {
        try sink.write(pretty ? "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [" : "{\"type\":\"FeatureCollection\",\"features\":[")
    }

    public func write(_ match: PlaceMatch) throws {
        let properties = ExportProperties(match, language: language)
        let longitude = ExportText.roundedCoordinate(properties.coordinates.longitude)
        let latitude = ExportText.roundedCoordinate(properties.coordinates.latitude)
        west = min(west, longitude)
        east = max(east, longitude)
        south = min(south, latitude)
        north = max(north, latitude)
        try sink.write(feature(properties))
        count += 1
    }

    public func finish() throws {
        var text = pretty ? (count > 0 ? "\n  ]" : "]") : (count > 0 ? "\n]" : "]")
        if count > 0 {
            let box = [west, south, east, north].map(ExportText.coordinate).joined(separator: pretty ? ", " : ",")
            text += pretty ? ",\n  \"bbox\": [\(box)]" : ",\"bbox\":[\(box)]"
        }
        text += pretty ? "\n}\n" : "}\n"
        try sink.write(text)
    }

    /// One feature as JSON (what `write` writes, without the separator).
    func feature(_ properties: ExportProperties) -> String {
        let point = ExportText.coordinate(properties.coordinates.longitude) + (pretty ? ", " : ",")
            + ExportText.coordinate(properties.coordinates.latitude)
        var text = count > 0 ? "," : ""
        if pretty {
            text += "\n    {\n      \"type\": \"Feature\",\n      \"id\": \(ExportText.jsonString(properties.id)),"
            text += "\n      \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(point)]},"
            text += "\n      \"properties\": {"
            for (index, field) in properties.fields.enumerated() {
                text += (index > 0 ? ",\n        " : "\n        ") + ExportText.jsonString(field.name) + ": " + json(field.value)
            }
            text += properties.fields.isEmpty ? "}\n    }" : "\n      }\n    }"
        } else {
            text += "\n{\"type\":\"Feature\",\"id\":\(ExportText.jsonString(properties.id)),"
            text += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(point)]},\"properties\":{"
            for (index, field) in properties.fields.enumerated() {
                text += (index > 0 ? "," : "") + ExportText.jsonString(field.name) + ":" + json(field.value)
            }
            text += "}}"
        }
        return text
    }

    private func json(_ value: ExportProperties.Value) -> String {
        switch value {
        case .string(let text): ExportText.jsonString(text)
        case .integer(let number): String(number)
        }
    }
}
