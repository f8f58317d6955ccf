/// One layer of a Mapbox Vector Tile (MVT 2.1) being written: point features with their id and
/// properties, the layer's key and value tables (each key and value stored once, features refer
/// to them by index), encoded as the `Layer` message of vector_tile.proto.
struct VectorTileLayer {
    let name: String
    let extent: Int
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [TileValue] = []
    private var valueIndex: [TileValue: UInt32] = [:]
    /// The encoded features, each a length-delimited field 2 of the layer.
    private var features = ProtobufWriter()
    private(set) var featureCount = 0
    private var tags: [UInt32] = []

    init(name: String, extent: Int) {
        self.name = name
        self.extent = extent
    }

    /// Adds a point at tile coordinates (x, y) (0...extent inside the tile, beyond it in the buffer).
    mutating func addPoint(id: UInt64?, x: Int, y: Int, properties: [TileProperty]) {
        tags.removeAll(keepingCapacity: true)
        for property in properties {
            tags.append(index(ofKey: property.name))
            tags.append(index(ofValue: property.value))
        }
        var feature = ProtobufWriter()
        if let id { feature.varintField(1, id) }
        feature.packedField(2, tags)
        feature.varintField(3, 1)  // GeomType.POINT
        // One MoveTo (command 1) with one point: (1 & 0x7) | (1 << 3), then zigzag dx, dy from (0, 0).
        feature.packedField(4, [9, UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(x))),
                                UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(y)))])
        features.bytesField(2, feature.bytes)
        featureCount += 1
    }

    private mutating func index(ofKey key: String) -> UInt32 {
        if let index = keyIndex[key] { return index }
        let index = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = index
        return index
    }

    private mutating func index(ofValue value: TileValue) -> UInt32 {
        if let index = valueIndex[value] { return index }
        let index = UInt32(values.count)
        values.append(value)
        valueIndex[value] = index
        return index
    }

    /// The `Layer` message, as field 3 of a `Tile`.
    func encode(into tile: inout ProtobufWriter) {
        var layer = ProtobufWriter()
        layer.varintField(15, 2)  // version 2
        layer.stringField(1, name)
        layer.bytes += features.bytes
        for key in keys { layer.stringField(3, key) }
        for value in values { value.encode(into: &layer) }
        layer.varintField(5, UInt64(extent))
        tile.bytesField(3, layer.bytes)
    }
}
