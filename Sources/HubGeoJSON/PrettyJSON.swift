import Foundation

/// The pretty JSON of `--format json`, `validate --format json|sarif`, `diff --format json`, `stats`,
/// `sources` and the server's statistics: any `Encodable` value, indented by two spaces, `"key" : value`,
/// keys sorted by their UTF-8 bytes, slashes as they are, strings escaped by the one escaper,
/// ``JSONString``. The layout is Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`, which wrote these outputs before, so that they keep their bytes; its
/// own string escaping is the one thing not taken (a control character is `\u001F`, not `\u001f`).
/// Numbers: integers as they are, a `Double` in Swift's shortest round-trip form without a trailing
/// `.0`; a NaN or infinity is refused, as `JSONEncoder` refuses it. A `URL` is its absolute string.
package enum PrettyJSON {
    /// `value` as pretty, key-sorted JSON (no final line feed).
    package static func string<Value: Encodable>(_ value: Value) throws -> String {
        let root = Node()
        try root.store(value, codingPath: [])
        var writer = Writer()
        writer.write(root, indent: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// One value of the tree being encoded; containers are filled after they are handed out, so
    /// each is a reference.
    final class Node {
        enum Kind {
            case unset, null, literal(String), string(String), array, object
        }

        var kind = Kind.unset
        var elements: [Node] = []
        var members: [String: Node] = [:]

        func store(_ value: any Encodable, codingPath: [any CodingKey]) throws {
            switch value {
            case let text as String: kind = .string(text)
            case let flag as Bool: kind = .literal(flag ? "true" : "false")
            case let number as Double: try storeFloatingPoint(number, codingPath: codingPath)
            case let number as Float: try storeFloatingPoint(number, codingPath: codingPath)
            case let url as URL: kind = .string(url.absoluteString)
            case let number as any BinaryInteger: kind = .literal(String(describing: number))
            default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
            }
        }

        func storeFloatingPoint<Number: BinaryFloatingPoint & CustomStringConvertible>(_ number: Number, codingPath: [any CodingKey]) throws {
            guard number.isFinite else {
                throw EncodingError.invalidValue(number, EncodingError.Context(
                    codingPath: codingPath, debugDescription: "Unable to encode \(number) directly in JSON."))
            }
            var text = number.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            kind = .literal(text)
        }

        func child(_ key: String) -> Node {
            if case .unset = kind { kind = .object }
            let node = Node()
            members[key] = node
            return node
        }

        func appendElement() -> Node {
            if case .unset = kind { kind = .array }
            let node = Node()
            elements.append(node)
            return node
        }
    }

    /// Writes a tree as `JSONEncoder`'s pretty, sorted layout.
    struct Writer {
        var bytes: [UInt8] = []

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func newLine(indent: Int) {
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
        }

        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { JSONString.escape($0, for: .json) { run in bytes.append(contentsOf: run) } }
            bytes.append(UInt8(ascii: "\""))
        }

        mutating func write(_ node: Node, indent: Int) {
            switch node.kind {
            case .null: append("null")
            case .literal(let text): append(text)
            case .string(let text): string(text)
            case .array:
                append("[")
                for (index, element) in node.elements.enumerated() {
                    if index > 0 { append(",") }
                    newLine(indent: indent + 1)
                    write(element, indent: indent + 1)
                }
                if node.elements.isEmpty { append("\n") }
                newLine(indent: indent)
                append("]")
            case .object, .unset:
                append("{")
                let members = node.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                for (index, member) in members.enumerated() {
                    if index > 0 { append(",") }
                    newLine(indent: indent + 1)
                    string(member.key)
                    append(" : ")
                    write(member.value, indent: indent + 1)
                }
                if members.isEmpty { append("\n") }
                newLine(indent: indent)
                append("}")
            }
        }
    }

    struct NodeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .unset = node.kind { node.kind = .object }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unset = node.kind { node.kind = .array }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(node: node, codingPath: codingPath)
        }
    }

    /// A position in an array, as a coding key.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).kind = .null }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            try node.child(key.stringValue).store(value, codingPath: codingPath + [key])
        }
        /// A primitive, stored by the generic path (which tells the primitives apart).
        private func encode(_ value: any Encodable, forKey key: Key) throws {
            try node.child(key.stringValue).store(value, codingPath: codingPath + [key])
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(value as any Encodable, forKey: key) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(key.stringValue)
            child.kind = .object
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(key.stringValue)
            child.kind = .array
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.child("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements.count }

        private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

        mutating func encodeNil() throws { node.appendElement().kind = .null }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            let path = nextPath
            try node.appendElement().store(value, codingPath: path)
        }
        private func encodeAny(_ value: any Encodable) throws {
            let path = nextPath
            try node.appendElement().store(value, codingPath: path)
        }
        mutating func encode(_ value: Bool) throws { try encodeAny(value) }
        mutating func encode(_ value: String) throws { try encodeAny(value) }
        mutating func encode(_ value: Double) throws { try encodeAny(value) }
        mutating func encode(_ value: Float) throws { try encodeAny(value) }
        mutating func encode(_ value: Int) throws { try encodeAny(value) }
        mutating func encode(_ value: Int8) throws { try encodeAny(value) }
        mutating func encode(_ value: Int16) throws { try encodeAny(value) }
        mutating func encode(_ value: Int32) throws { try encodeAny(value) }
        mutating func encode(_ value: Int64) throws { try encodeAny(value) }
        mutating func encode(_ value: UInt) throws { try encodeAny(value) }
        mutating func encode(_ value: UInt8) throws { try encodeAny(value) }
        mutating func encode(_ value: UInt16) throws { try encodeAny(value) }
        mutating func encode(_ value: UInt32) throws { try encodeAny(value) }
        mutating func encode(_ value: UInt64) throws { try encodeAny(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = nextPath
            let child = node.appendElement()
            child.kind = .object
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextPath
            let child = node.appendElement()
            child.kind = .array
            return UnkeyedContainer(node: child, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let path = nextPath
            return NodeEncoder(node: node.appendElement(), codingPath: path)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.kind = .null }
        mutating func encode<Value: Encodable>(_ value: Value) throws { try node.store(value, codingPath: codingPath) }
        mutating func encode(_ value: Bool) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: String) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Double) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Float) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Int) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Int8) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Int16) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Int32) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: Int64) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: UInt) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: UInt8) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: UInt16) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: UInt32) throws { try node.store(value as any Encodable, codingPath: codingPath) }
        mutating func encode(_ value: UInt64) throws { try node.store(value as any Encodable, codingPath: codingPath) }
    }
}
