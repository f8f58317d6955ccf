import HubGeoDatabase
import HubGeoModel

/// GeoJSON collections for the map page and the server, written by ``GeoJSONWriter``: the same
/// shape and order as `hubgeo export geojson` (clubs, then museums, by id within a type).
package enum MapGeoJSON {
    /// A compact FeatureCollection of what `selection` picks (with the cached places of
    /// `localization`, when given), at most `cap` features, read from one snapshot of the
    /// database (``OrganizationReading/snapshot(_:)``). When more match, the collection stops at
    /// `cap` and carries `"truncated": true`.
    package static func collection(_ store: borrowing some OrganizationReading & ~Copyable, _ selection: OrganizationSelection,
                                  type: OrganizationType? = nil, localization: LocalizationSource? = nil,
                                  cap: Int? = nil) throws -> (json: String, count: Int, truncated: Bool) {
        try store.snapshot { store in
            try collection(inSnapshot: store, selection, type: type, localization: localization, cap: cap)
        }
    }

    private static func collection(inSnapshot store: borrowing StoreSnapshot, _ selection: OrganizationSelection,
                                   type: OrganizationType?, localization: LocalizationSource?,
                                   cap: Int?) throws -> (json: String, count: Int, truncated: Bool) {
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, language: localization?.language)
        try writer.begin()
        var truncated = false
        for kind in type.map({ [$0] }) ?? OrganizationType.allCases {
            let remaining = cap.map { $0 - writer.featureCount }
            let filter = OrganizationFilter(type: kind, limit: remaining, localization: localization)
            // The export's own path (one statement, one pass), so that the server answers what
            // `hubgeo export geojson` writes, byte for byte.
            try store.export(selection, filter: filter, to: writer)
            if let cap, writer.featureCount >= cap {
                // Whether the cap cut anything: is there one more, of this type or a later one?
                let later = type == nil ? OrganizationType.allCases.drop { $0 != kind } : [kind]
                for rest in later {
                    let next = OrganizationFilter(type: rest, limit: 1, offset: rest == kind ? remaining ?? 0 : 0)
                    try store.forEach(selection, filter: next) { _ in truncated = true }
                    if truncated { break }
                }
                break
            }
        }
        try writer.finish()
        return (truncated ? markTruncated(sink.text) : sink.text, writer.featureCount, truncated)
    }

    /// A compact FeatureCollection of the given matches, in their order (for `near`).
    package static func collection(_ matches: [PlaceMatch], language: String?, truncated: Bool = false) throws -> String {
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, language: language)
        try writer.begin()
        for match in matches { try writer.write(match) }
        try writer.finish()
        return truncated ? markTruncated(sink.text) : sink.text
    }

    /// Adds `"truncated": true` as the collection's last member.
    static func markTruncated(_ json: String) -> String {
        var text = json
        while text.last == "\n" { text.removeLast() }
        guard text.last == "}" else { return json }
        text.removeLast()
        return text + ",\"truncated\":true}\n"
    }
}
