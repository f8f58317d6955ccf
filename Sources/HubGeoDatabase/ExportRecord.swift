import HubGeoModel

/// One organization's export fields as UTF-8 bytes in a reusable arena: filled from a
/// ``PlaceMatch`` or straight from database columns, written by the export writers without a
/// `String` per feature. The writers read it from another module on their hot path, so its
/// readers are inlinable.
package struct ExportRecord {
    /// The text fields, in the order the exports write them (`id` first, not a property).
    package enum Field: Int, CaseIterable {
        case id, name, nickName, type, town, localizedTown, localizedTownSource, localizedCountry, language, website, wikipedia, remark, remarkLanguage

        /// The property name as written.
        @inlinable
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

    @usableFromInline private(set) var arena: [UInt8] = []
    /// Start and end in `arena` per field; an empty range is an absent field.
    @usableFromInline var starts = [Int](repeating: 0, count: Field.allCases.count)
    @usableFromInline var ends = [Int](repeating: 0, count: Field.allCases.count)
    package var organizationType: OrganizationType = .club
    package var latitude = 0.0
    package var longitude = 0.0
    package var fotobondNumber: Int?
    package var memberCount: Int?

    package init() {
        arena.reserveCapacity(4096)
    }

    mutating func reset() {
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

    @inlinable
    package func has(_ field: Field) -> Bool { ends[field.rawValue] > starts[field.rawValue] }

    /// Calls `body` with the bytes of `field` (empty when absent).
    @inlinable
    package func withBytes<Result>(_ field: Field, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try arena.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[starts[field.rawValue]..<ends[field.rawValue]]))
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
