import HubGeoDatabase
import HubGeoJSON

/// Writes organizations as an RFC 7946 GeoJSON `FeatureCollection`, one feature at a time.
///
/// Each feature has the organization's stable id, a Point `[longitude, latitude]` (7 decimals
/// at most) and the `ExportProperties`. The collection's `bbox` (west, south, east, north of
/// the points as written) comes after `features`, which RFC 7946 allows, so that nothing has
/// to be held back while streaming; an empty collection has none. No `crs` member.
///
/// Compact output puts each feature on a line of its own; `pretty` indents everything.
/// The text is built as UTF-8 bytes in one reusable buffer and handed to the sink in large
/// pieces; ``finish()`` hands over the rest.
public final class GeoJSONWriter: OrganizationWriter {
    private let sink: ExportSink
    private let language: String?
    private let pretty: Bool
    private var count = 0
    private var west = Double.infinity, south = Double.infinity
    private var east = -Double.infinity, north = -Double.infinity
    private let buffer = UTF8Buffer()
    private var record = ExportRecord()

    /// The language that picks the remark.
    var remarkLanguage: String? { language }

    /// `language` picks the remark (see `ExportProperties`).
    public init(sink: ExportSink, language: String? = nil, pretty: Bool = false) {
        self.sink = sink
        self.language = language
        self.pretty = pretty
    }

    /// The number of features written so far.
    public var featureCount: Int { count }

    /// Starts the FeatureCollection.
    public func begin() throws {
        buffer.append(pretty ? "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [" : "{\"type\":\"FeatureCollection\",\"features\":[")
    }

    /// Writes `match` as one Feature.
    public func write(_ match: PlaceMatch) throws {
        record.fill(match, language: language)
        try write(record)
    }

    /// Writes one feature from its record.
    func write(_ record: ExportRecord) throws {
        let longitude = ExportText.roundedCoordinate(record.longitude)
        let latitude = ExportText.roundedCoordinate(record.latitude)
        west = min(west, longitude)
        east = max(east, longitude)
        south = min(south, latitude)
        north = max(north, latitude)
        appendFeature(record)
        count += 1
        if buffer.count >= ExportSinks.chunkSize { try flush() }
    }

    /// Ends the FeatureCollection and hands the rest to the sink.
    public func finish() throws {
        buffer.append(pretty ? (count > 0 ? "\n  ]" : "]") : (count > 0 ? "\n]" : "]"))
        if count > 0 {
            buffer.append(pretty ? ",\n  \"bbox\": [" : ",\"bbox\":[")
            for (index, value) in [west, south, east, north].enumerated() {
                if index > 0 { buffer.append(pretty ? ", " : ",") }
                buffer.append(coordinate: value)
            }
            buffer.append("]")
        }
        buffer.append(pretty ? "\n}\n" : "}\n")
        try flush()
    }

    /// Hands what the buffer holds to the sink.
    public func flush() throws {
        guard buffer.count > 0 else { return }
        try buffer.withBytes { try sink.write(bytes: $0) }
        buffer.removeAll()
    }

    /// What comes before a property: a comma after the first, and in pretty output a new line.
    private func appendSeparator(first: Bool) {
        if pretty {
            buffer.append(first ? "\n        " : ",\n        ")
        } else if !first {
            buffer.append(",")
        }
    }

    private func appendFeature(_ record: ExportRecord) {
        if count > 0 { buffer.append(",") }
        buffer.append(pretty ? "\n    {\n      \"type\": \"Feature\",\n      \"id\": " : "\n{\"type\":\"Feature\",\"id\":")
        record.bytes(.id) { buffer.append(jsonString: $0, for: .javaScript) }
        buffer.append(pretty ? ",\n      \"geometry\": {\"type\": \"Point\", \"coordinates\": [" : ",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
        buffer.append(coordinate: record.longitude)
        buffer.append(pretty ? ", " : ",")
        buffer.append(coordinate: record.latitude)
        buffer.append(pretty ? "]},\n      \"properties\": {" : "]},\"properties\":{")
        var written = record.forEachProperty { index, name, value in
            appendSeparator(first: index == 0)
            buffer.append("\"")
            buffer.append(name)
            buffer.append(pretty ? "\": " : "\":")
            buffer.append(jsonString: value, for: .javaScript)
        }
        func separator() {
            appendSeparator(first: written == 0)
            written += 1
        }
        if let number = record.fotobondNumber {
            separator()
            buffer.append(pretty ? "\"fotobondNumber\": " : "\"fotobondNumber\":")
            buffer.append(integer: number)
        }
        if let number = record.memberCount {
            separator()
            buffer.append(pretty ? "\"memberCount\": " : "\"memberCount\":")
            buffer.append(integer: number)
        }
        if pretty {
            buffer.append(written == 0 ? "}\n    }" : "\n      }\n    }")
        } else {
            buffer.append("}}")
        }
    }
}
