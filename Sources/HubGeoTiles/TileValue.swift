/// The value of a feature's property in a vector tile (MVT `Value`: a string, an unsigned
/// integer or a double; the other kinds are not needed here).
public enum TileValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// An unsigned integer.
    case unsigned(UInt64)
    /// A double.
    case double(Double)

    /// The protocol buffers `Value` message.
    func encode(into writer: inout ProtobufWriter) {
        var body = ProtobufWriter()
        switch self {
        case .string(let text): body.stringField(1, text)
        case .double(let number): body.doubleField(3, number)
        case .unsigned(let number): body.varintField(5, number)
        }
        writer.bytesField(4, body.bytes)
    }
}

/// A named property of a feature.
public struct TileProperty: Sendable, Equatable {
    /// The property's name.
    public var name: String
    /// The property's value.
    public var value: TileValue

    /// A property `name` of `value`.
    public init(_ name: String, _ value: TileValue) {
        self.name = name
        self.value = value
    }

    /// A property `name` of the string `text`.
    public init(_ name: String, _ text: String) {
        self.init(name, .string(text))
    }
}
