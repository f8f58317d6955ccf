import Foundation
import HubGeoJSON

/// What a tile set says about itself: the PMTiles metadata, the MBTiles `metadata` table and
/// TileJSON 3.0 are written from it.
public struct TileSetMetadata: Sendable {
    /// The tile set's name.
    public var name = "hubgeo"
    /// What the tile set holds.
    public var description = "Photo clubs and museums of Photo Club Hub, clustered for every zoom (hubgeo)"
    /// Whom the map credits.
    public var attribution = "Photo Club Hub"
    /// The box of the organizations (west, south, east, north, degrees), with an area: a side
    /// narrower than ``minimumSide`` (one organization, or all on one meridian or parallel) is
    /// widened to it around its middle, inside the world, when set. A box of no area is refused
    /// by PMTiles readers (go-pmtiles `verify`: "bounds has area <= 0: clients may not display
    /// tiles correctly"), and the archive's metadata and TileJSON give the same box as its header.
    public var bounds: (west: Double, south: Double, east: Double, north: Double) = (-180, -85.0511, 180, 85.0511) {
        didSet { bounds = Self.withArea(bounds) }
    }

    /// The narrowest side of ``bounds``, in degrees: about a metre, and 100 units of the PMTiles
    /// header's 1e-7 degrees.
    public static let minimumSide = 0.00001
    /// The first zoom.
    public var minimumZoom = 0
    /// The last zoom.
    public var maximumZoom = 0
    /// Whether the organizations carry localized towns and countries (and in which language).
    public var language: String?
    /// The version of the tile set.
    public var version = "1.0.0"

    /// The metadata of hubgeo's tiles, of the whole world, at zoom 0.
    public init() {}

    /// `box` with every side at least ``minimumSide`` long, within -180...180 and -90...90.
    static func withArea(_ box: (west: Double, south: Double, east: Double, north: Double))
        -> (west: Double, south: Double, east: Double, north: Double) {
        func widened(_ low: Double, _ high: Double, limit: Double) -> (Double, Double) {
            guard !(high - low >= minimumSide) else { return (low, high) }
            let middle = min(limit - minimumSide / 2, max(-limit + minimumSide / 2, (low + high) / 2))
            return (middle - minimumSide / 2, middle + minimumSide / 2)
        }
        let (west, east) = widened(box.west, box.east, limit: 180)
        let (south, north) = widened(box.south, box.north, limit: 90)
        return (west, south, east, north)
    }

    /// The centre of the bounds, at the lowest zoom.
    public var center: (longitude: Double, latitude: Double, zoom: Int) {
        ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, minimumZoom)
    }

    /// The layers as TileJSON's `vector_layers` (a JSON array).
    public var vectorLayersJSON: String {
        let layers = TileLayers.descriptions(localized: language != nil).map { layer in
            let fields = layer.fields.map { "\(Self.string($0.name)):\(Self.string($0.type))" }.joined(separator: ",")
            return "{\"id\":\(Self.string(layer.id)),\"description\":\(Self.string(layer.description)),"
                + "\"minzoom\":\(minimumZoom),\"maxzoom\":\(maximumZoom),\"fields\":{\(fields)}}"
        }
        return "[" + layers.joined(separator: ",") + "]"
    }

    var boundsText: String { [bounds.west, bounds.south, bounds.east, bounds.north].map(Self.number).joined(separator: ",") }
    var centerText: String { "\(Self.number(center.longitude)),\(Self.number(center.latitude)),\(center.zoom)" }

    /// The JSON of the PMTiles metadata and of a folder's `metadata.json`: name, format, bounds,
    /// centre, zooms, attribution, `vector_layers` (as in TileJSON).
    public var json: String {
        var text = "{\"name\":\(Self.string(name)),\"description\":\(Self.string(description)),\"version\":\(Self.string(version)),"
        text += "\"attribution\":\(Self.string(attribution)),\"type\":\"overlay\",\"format\":\"pbf\","
        text += "\"generator\":\"hubgeo\","
        if let language { text += "\"language\":\(Self.string(language))," }
        text += "\"bounds\":[\(boundsText)],\"center\":[\(centerText)],\"minzoom\":\(minimumZoom),\"maxzoom\":\(maximumZoom),"
        text += "\"vector_layers\":\(vectorLayersJSON)}"
        return text
    }

    /// TileJSON 3.0.0 for tiles at `tilesURL` (a template with {z}, {x} and {y}).
    public func tileJSON(tilesURL: String) -> String {
        var text = "{\"tilejson\":\"3.0.0\",\"tiles\":[\(Self.string(tilesURL))],\"name\":\(Self.string(name)),"
        text += "\"description\":\(Self.string(description)),\"version\":\(Self.string(version)),"
        text += "\"attribution\":\(Self.string(attribution)),\"scheme\":\"xyz\","
        text += "\"bounds\":[\(boundsText)],\"center\":[\(centerText)],\"minzoom\":\(minimumZoom),\"maxzoom\":\(maximumZoom),"
        text += "\"vector_layers\":\(vectorLayersJSON)}\n"
        return text
    }

    /// The rows of the MBTiles 1.3 `metadata` table.
    var mbtilesRows: [(String, String)] {
        var rows = [("name", name), ("format", "pbf"), ("bounds", boundsText), ("center", centerText),
                    ("minzoom", String(minimumZoom)), ("maxzoom", String(maximumZoom)), ("attribution", attribution),
                    ("description", description), ("type", "overlay"), ("version", version),
                    ("json", "{\"vector_layers\":\(vectorLayersJSON)}"), ("generator", "hubgeo")]
        if let language { rows.append(("language", language)) }
        return rows
    }

    /// A JSON string literal (``JSONString``).
    static func string(_ text: String) -> String {
        JSONString.quoted(text)
    }

    /// A coordinate with at most 7 decimals, no exponent.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.7f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
