import HubGeoModel

/// One organization's export fields as UTF-8 bytes in a reusable arena: filled from a
/// ``PlaceMatch`` or straight from database columns, written by the export writers without a
/// `String` per feature. The writers read it from another module on their hot path, through
/// non-generic calls that loop inside this module (``forEachProperty(_:)``, ``bytes(_:_:)``): an
/// unspecialized generic call per field costs more than the writing. It lives here, not in
/// HubGeoExport, because ``ExportRowReader`` fills it from SQLite's columns in place, which only the
/// database target does; HubGeoExport writes and orders it.
package struct ExportRecord {
    /// The text fields, in the order the exports write them (`id` first, not a property).
    package enum Field: Int, CaseIterable {
        case id, name, nickName, type, town, localizedTown, localizedTownSource, localizedCountry, language, website, wikipedia, remark, remarkLanguage

        /// The property name as written.
        package var propertyName: StaticString {
            switch self {
            case .id: "id"
            case .name: "name"
            case .nickName: "nickName"
            case .type: "type"
            case .town: "town"
            case .localizedTown: "localizedTown"
            case .localizedTownSource: "localizedTownSource"
            case .localizedCountry: "localizedCountry"
            case .language: "language"
            case .website: "website"
            case .wikipedia: "wikipedia"
            case .remark: "remark"
            case .remarkLanguage: "remarkLanguage"
            }
        }

        /// The properties, in order (all but `id`).
        package static let properties: [Field] = Array(allCases.dropFirst())
    }

    private var arena: [UInt8] = []
    /// The bytes the fields are in instead of `arena`, while a record kept aside is read in place
    /// (``withStored(at:in:_:)``).
    private var stored: UnsafeBufferPointer<UInt8>?
    /// Start and end in `arena` (or `stored`) per field; an empty range is an absent field.
    private var starts = [Int](repeating: 0, count: Field.allCases.count)
    private var ends = [Int](repeating: 0, count: Field.allCases.count)
    package var organizationType: OrganizationType = .club
    package var latitude = 0.0
    package var longitude = 0.0
    package var fotobondNumber: Int?
    package var memberCount: Int?

    package init() {
        arena.reserveCapacity(4096)
    }

    mutating func reset() {
        stored = nil
        arena.removeAll(keepingCapacity: true)
        for index in starts.indices {
            starts[index] = 0
            ends[index] = 0
        }
        fotobondNumber = nil
        memberCount = nil
    }

    /// Sets `field` to `text` (left absent when empty).
    mutating func set(_ field: Field, _ text: UnsafeBufferPointer<UInt8>) {
        guard !text.isEmpty else {
            starts[field.rawValue] = 0
            ends[field.rawValue] = 0
            return
        }
        starts[field.rawValue] = arena.count
        arena.append(contentsOf: text)
        ends[field.rawValue] = arena.count
    }

    mutating func set(_ field: Field, _ text: String?) {
        guard var text else { return }
        text.withUTF8 { set(field, $0) }
    }

    package func has(_ field: Field) -> Bool { ends[field.rawValue] > starts[field.rawValue] }

    /// Calls `body` with the bytes the fields are in.
    @inline(__always)
    private func withFieldBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let stored { return body(stored) }
        return arena.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the bytes of `field` (empty when absent).
    package func bytes(_ field: Field, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withFieldBytes { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[starts[field.rawValue]..<ends[field.rawValue]]))
        }
    }

    /// Calls `body` with the position among those written (0 first), name and bytes of each
    /// property present, in order (``Field/properties``); returns how many. (The position spares
    /// the writers a counter captured by the closure, which Swift would box and check at run time.)
    @discardableResult
    package func forEachProperty(_ body: (_ index: Int, _ name: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        withFieldBytes { buffer in
            var index = 0
            for field in Field.properties where ends[field.rawValue] > starts[field.rawValue] {
                body(index, field.propertyName, UnsafeBufferPointer(rebasing: buffer[starts[field.rawValue]..<ends[field.rawValue]]))
                index += 1
            }
            return index
        }
    }

    /// The record of `match`, as ``ExportProperties/init(_:language:)`` chooses its fields.
    package mutating func fill(_ match: PlaceMatch, language: String?) {
        reset()
        let organization = match.organization
        organizationType = organization.type
        latitude = organization.coordinates.latitude
        longitude = organization.coordinates.longitude
        set(.id, organization.stableID)
        set(.name, organization.fullName)
        set(.nickName, organization.nickName)
        set(.type, organization.type.rawValue)
        set(.town, organization.town)
        if let localized = match.localized {
            set(.localizedTown, localized.town)
            set(.localizedTownSource, localized.town == nil ? nil : localized.townSource?.rawValue)
            set(.localizedCountry, localized.country)
            set(.language, localized.language)
        }
        set(.website, organization.website)
        set(.wikipedia, organization.wikipedia)
        let remark = organization.remarks.preferred(language: language ?? match.localized?.language)
        set(.remark, remark?.value)
        set(.remarkLanguage, remark?.language)
        fotobondNumber = organization.fotobondNumber
        memberCount = organization.type == .club ? organization.memberCount : nil
    }
}

// MARK: - Kept aside

extension ExportRecord {
    /// Appends the record to `buffer` in a form ``init(storedAt:in:)`` reads back: the stable
    /// id first (`StableIDOrdering` sorts by it without decoding the rest), then the numbers,
    /// then the other fields, each with its length as a LEB128 number. (For HubGeoExport's
    /// `StableIDOrdering`; ``storedID(at:in:)`` is inlinable, for the sort's comparator.)
    package func append(to buffer: inout [UInt8]) {
        withFieldBytes { arena in
            func appendField(_ field: Field) {
                let range = starts[field.rawValue]..<ends[field.rawValue]
                Self.appendLength(range.count, to: &buffer)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: arena[range]))
            }
            appendField(.id)
            buffer.append(organizationType == .museum ? 1 : 0)
            Self.append(latitude.bitPattern, to: &buffer)
            Self.append(longitude.bitPattern, to: &buffer)
            buffer.append((fotobondNumber == nil ? 0 : 1) | (memberCount == nil ? 0 : 2))
            if let fotobondNumber { Self.append(UInt64(bitPattern: Int64(fotobondNumber)), to: &buffer) }
            if let memberCount { Self.append(UInt64(bitPattern: Int64(memberCount)), to: &buffer) }
            for field in Field.properties { appendField(field) }
        }
    }

    /// Calls `body` with the record ``append(to:)`` wrote at `offset` of `bytes`, its fields read
    /// in place, without a copy: the record refers to `bytes` during `body` only. (Copying every
    /// field into the arena, as a record read back once did, was 4 to 5 % of an export's user time:
    /// release build, 200,000 organizations, perf.)
    package mutating func withStored(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ body: (ExportRecord) throws -> Void) rethrows {
        reset()
        var position = offset
        func readField(_ field: Field) {
            let count = Self.readLength(bytes, &position)
            starts[field.rawValue] = position
            ends[field.rawValue] = position + count
            position += count
        }
        readField(.id)
        organizationType = bytes[position] == 1 ? .museum : .club
        position += 1
        latitude = Double(bitPattern: Self.readUInt64(bytes, &position))
        longitude = Double(bitPattern: Self.readUInt64(bytes, &position))
        let present = bytes[position]
        position += 1
        if present & 1 != 0 { fotobondNumber = Int(Int64(bitPattern: Self.readUInt64(bytes, &position))) }
        if present & 2 != 0 { memberCount = Int(Int64(bitPattern: Self.readUInt64(bytes, &position))) }
        for field in Field.properties { readField(field) }
        stored = bytes
        defer { stored = nil }
        try body(self)
    }

    /// The stable id of the record ``append(to:)`` wrote at `offset` of `bytes`.
    @inlinable
    package static func storedID(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var position = offset
        let count = readLength(bytes, &position)
        return UnsafeBufferPointer(rebasing: bytes[position..<position + count])
    }

    @inlinable
    package static func appendLength(_ length: Int, to buffer: inout [UInt8]) {
        LEB128.append(UInt64(length), to: &buffer)
    }

    /// The length at `position` of a record ``append(to:)`` wrote, whole in `bytes`.
    @inlinable
    package static func readLength(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Int {
        Int(LEB128.read(bytes, at: &position)!)
    }

    private static func append(_ value: UInt64, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    private static func readUInt64(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> UInt64 {
        let value = UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self)
        position += 8
        return UInt64(littleEndian: value)
    }
}
