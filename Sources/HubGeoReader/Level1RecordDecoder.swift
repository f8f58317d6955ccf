import Foundation
import HubGeoJSON
import HubGeoModel

/// Reads one Level 1 organization entry straight from its bytes, for imports of any size: no
/// `JSONValue` tree, no `String` per key (keys are compared as bytes), strings made only for
/// the values kept, read by the one reader of JSON bytes (``JSONScanner``). It handles the
/// ordinary entry: the known keys, each once, with values of the right kinds. For anything else
/// (an unknown key or one written with an escape, a missing or blank field, a wrong type, a
/// duplicate key or remark language, a control character in a name, a syntax error) it gives up, and the caller reads that entry through ``JSONParser`` and
/// ``OrganizationRecord/read(_:)``, which report the exact problem: both paths give the same
/// organizations and the same diagnostics. Measured (BENCHMARKS.md, the import's section): an
/// import of 200,000 generated organizations took 3.48 s with it and 5.95 s with the parser alone
/// (user time 2.70 s against 3.63 s).
struct Level1RecordDecoder {
    /// Thrown to give an entry up (no payload: the caller's full reading says why).
    struct GiveUp: Error {}

    /// The one reader of JSON bytes: white space, strings, numbers and null.
    private var scanner: JSONScanner
    /// The line of the last key read.
    private var keyLine = 0

    private init(_ scanner: JSONScanner) {
        self.scanner = scanner
    }

    /// The organization in `bytes` (one entry; its first byte on `line`) and the line of its
    /// first member, or nil when the full reader must handle it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, type: OrganizationType, source: String)
        -> (organization: Organization, firstMemberLine: Int)? {
        guard let decoded = decode(bytes, at: 0, line: line, lineStart: 0, type: type, source: source) else { return nil }
        var scanner = JSONScanner(bytes, position: decoded.end.position, line: decoded.end.line,
                                  column: decoded.end.position - decoded.end.lineStart + 1)
        scanner.skipWhitespace()
        guard scanner.atEnd else { return nil }
        return (decoded.organization, decoded.firstMemberLine)
    }

    /// Where a decoded entry ends: the offset just after its closing brace, that offset's line
    /// and the offset where that line starts.
    struct End {
        var position: Int
        var line: Int
        var lineStart: Int
    }

    /// Decodes the entry that starts at `position` in `bytes` (a whole document: the entry's end
    /// is found by decoding it, without another pass), at `line`, which starts at `lineStart`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, line: Int, lineStart: Int,
                       type: OrganizationType, source: String)
        -> (organization: Organization, firstMemberLine: Int, end: End)? {
        var decoder = Level1RecordDecoder(JSONScanner(bytes, position: position, line: line, column: position - lineStart + 1))
        do {
            let (record, firstLine) = try decoder.entry()
            return (record.organization(type: type, source: source), firstLine,
                    End(position: decoder.scanner.position, line: decoder.scanner.line, lineStart: decoder.scanner.lineStart))
        } catch {
            return nil
        }
    }

    // MARK: - The entry

    private enum Key: Int {
        case idPlus, town, fullName, nickName, coordinates, latitude, longitude, optional, website, wikipedia,
             level2URL, maintainerEmail, nlSpecific, fotobondNumber, remark, language, value
    }

    private static let keyBytes: [(key: Key, bytes: [UInt8])] = ([
        (.idPlus, "idPlus"), (.town, "town"), (.fullName, "fullName"), (.nickName, "nickName"),
        (.coordinates, "coordinates"), (.latitude, "latitude"), (.longitude, "longitude"), (.optional, "optional"),
        (.website, "website"), (.wikipedia, "wikipedia"), (.level2URL, "level2URL"), (.maintainerEmail, "maintainerEmail"),
        (.nlSpecific, "nlSpecific"), (.fotobondNumber, "fotobondNumber"), (.remark, "remark"), (.language, "language"),
        (.value, "value"),
    ] as [(Key, String)]).map { ($0.0, Array($0.1.utf8)) }

    private mutating func entry() throws -> (OrganizationRecord, Int) {
        var identity: (town: String, fullName: String, nickName: String)?
        var coordinates: GeoPoint?
        var record = OrganizationRecord(identity: OrganizationIdentity(town: "", fullName: ""), nickName: "",
                                        coordinates: GeoPoint(latitude: 0, longitude: 0), remarks: [])
        var seen = KeySet()
        var first = true
        var firstLine = scanner.line
        try begin(UInt8(ascii: "{"))
        while let key = try nextMember(&first, seen: &seen) {
            if seen.count == 1 { firstLine = keyLine }
            switch key {
            case .idPlus: identity = try idPlus()
            case .coordinates: coordinates = try self.coordinates()
            case .optional: try optional(into: &record)
            default: throw GiveUp()
            }
        }
        guard let identity, let coordinates else { throw GiveUp() }
        record.identity = OrganizationIdentity(town: identity.town, fullName: identity.fullName)
        record.nickName = identity.nickName
        record.coordinates = coordinates
        return (record, firstLine)
    }

    private mutating func idPlus() throws -> (town: String, fullName: String, nickName: String) {
        var town: String?, fullName: String?, nickName: String?
        var seen = KeySet()
        var first = true
        try begin(UInt8(ascii: "{"))
        while let key = try nextMember(&first, seen: &seen) {
            switch key {
            case .town: town = try identityString()
            case .fullName: fullName = try identityString()
            case .nickName: nickName = try identityString()
            default: throw GiveUp()
            }
        }
        guard let town, let fullName, let nickName else { throw GiveUp() }
        return (town, fullName, nickName)
    }

    private mutating func coordinates() throws -> GeoPoint {
        var latitude: Double?, longitude: Double?
        var seen = KeySet()
        var first = true
        try begin(UInt8(ascii: "{"))
        while let key = try nextMember(&first, seen: &seen) {
            switch key {
            case .latitude: latitude = try number()
            case .longitude: longitude = try number()
            default: throw GiveUp()
            }
        }
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else { throw GiveUp() }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    private mutating func optional(into record: inout OrganizationRecord) throws {
        if try null() { return }
        var seen = KeySet()
        var first = true
        try begin(UInt8(ascii: "{"))
        while let key = try nextMember(&first, seen: &seen) {
            switch key {
            case .website: record.website = try optionalString()
            case .wikipedia: record.wikipedia = try optionalString()
            case .level2URL: record.level2URL = try optionalString()
            case .maintainerEmail: record.maintainerEmail = try optionalString()
            case .nlSpecific: record.fotobondNumber = try nlSpecific()
            case .remark: record.remarks = try remarks()
            default: throw GiveUp()
            }
        }
    }

    private mutating func nlSpecific() throws -> Int? {
        if try null() { return nil }
        var number: Int?
        var seen = KeySet()
        var first = true
        try begin(UInt8(ascii: "{"))
        while let key = try nextMember(&first, seen: &seen) {
            guard key == .fotobondNumber else { throw GiveUp() }
            if try null() { continue }
            let value = try self.number()
            guard value.rounded() == value, abs(value) < 1e15 else { throw GiveUp() }
            number = Int(value)
        }
        return number
    }

    private mutating func remarks() throws -> [LocalizedRemark] {
        if try null() { return [] }
        var remarks: [LocalizedRemark] = []
        try begin(UInt8(ascii: "["))
        if scanner.expect(UInt8(ascii: "]")) { return remarks }
        while true {
            var language: String?, value: String?
            var seen = KeySet()
            var first = true
            try begin(UInt8(ascii: "{"))
            while let key = try nextMember(&first, seen: &seen) {
                switch key {
                case .language: language = try requiredString().uppercased()
                case .value: value = try requiredString()
                default: throw GiveUp()
                }
            }
            guard let language, let value, !remarks.contains(where: { $0.language == language }) else { throw GiveUp() }
            remarks.append(LocalizedRemark(language: language, value: value))
            if scanner.expect(UInt8(ascii: ",")) { continue }
            guard scanner.expect(UInt8(ascii: "]")) else { throw GiveUp() }
            remarks.sort { $0.language < $1.language }
            return remarks
        }
    }

    // MARK: - Objects and keys

    /// The keys met in one object, to give up on a duplicate.
    private struct KeySet {
        var bits: UInt32 = 0
        var count = 0
        mutating func insert(_ key: Key) -> Bool {
            let bit = UInt32(1) << UInt32(key.rawValue)
            guard bits & bit == 0 else { return false }
            bits |= bit
            count += 1
            return true
        }
    }

    private mutating func begin(_ byte: UInt8) throws {
        guard scanner.expect(byte) else { throw GiveUp() }
    }

    /// The next member's key (the value follows), or nil at the end of the object. Keys are
    /// compared as bytes: one with an escape matches none, and the full reader takes the entry.
    private mutating func nextMember(_ first: inout Bool, seen: inout KeySet) throws -> Key? {
        if first {
            first = false
            if scanner.expect(UInt8(ascii: "}")) { return nil }
        } else {
            if scanner.expect(UInt8(ascii: "}")) { return nil }
            guard scanner.expect(UInt8(ascii: ",")) else { throw GiveUp() }
        }
        guard scanner.peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        keyLine = scanner.line
        let start = scanner.position + 1
        guard scanner.skipString() else { throw GiveUp() }
        let length = scanner.position - 1 - start
        guard scanner.expect(UInt8(ascii: ":")) else { throw GiveUp() }
        scanner.skipWhitespace()
        for candidate in Self.keyBytes where candidate.bytes.count == length {
            if candidate.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, scanner.bytes.baseAddress! + start, length) == 0 }) {
                guard seen.insert(candidate.key) else { throw GiveUp() }
                return candidate.key
            }
        }
        throw GiveUp()
    }

    // MARK: - Values

    /// Consumes `null` when it comes next.
    private mutating func null() throws -> Bool {
        try scanner.readNull()
    }

    /// A string that is not blank (only spaces and tabs), as `JSONCursor.requiredString`.
    private mutating func requiredString() throws -> String {
        let string = try self.string()
        // Most strings start with a visible ASCII character: not blank, without looking further.
        if let first = string.utf8.first, first > 0x20 && first < 0x7F { return string }
        guard !string.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }) else {
            throw GiveUp()
        }
        return string
    }

    /// A name: not blank, without control characters (as `JSONCursor.requiredIdentityString`).
    private mutating func identityString() throws -> String {
        let string = try requiredString()
        // In UTF-8, U+0000-U+001F and U+007F are those bytes; U+0080-U+009F are 0xC2 0x80-0x9F.
        var previous: UInt8 = 0
        for byte in string.utf8 {
            if byte < 0x20 || byte == 0x7F || previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { throw GiveUp() }
            previous = byte
        }
        return string
    }

    /// nil for null or "", as `JSONCursor.optionalString`.
    private mutating func optionalString() throws -> String? {
        if try null() { return nil }
        let string = try self.string()
        return string.isEmpty ? nil : string
    }

    private mutating func string() throws -> String {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        return try scanner.readString()
    }

    /// A number with JSON's grammar, read as ``JSONParser`` reads it (the same bits).
    private mutating func number() throws -> Double {
        try scanner.readNumber()
    }
}
