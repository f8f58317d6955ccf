import Foundation
import HubGeo

/// Prints query results as a table, as JSON or as GeoJSON.
enum ResultPrinter {
    /// Prints what `selection` picks, in `order`. JSON and GeoJSON stream from the database to
    /// standard output, so memory stays flat however many organizations match; a table needs all
    /// of them for its column widths.
    static func print(_ store: OrganizationStore, _ selection: OrganizationSelection, filter: OrganizationFilter,
                      order: ResultOrder, format: OutputFormat, language: String?) throws {
        switch format {
        case .table:
            var matches: [PlaceMatch] = []
            try store.forEachChunk(selection, filter: filter, order: order) { matches += $0 }
            try print(matches, format: .table, language: language)
        case .json:
            fflush(nil)
            let sink = FileDescriptorSink.standardOutput()
            let writer = OrganizationJSONWriter(sink: sink)
            try writer.begin()
            try store.forEachChunk(selection, filter: filter, order: order) { chunk in
                for match in chunk {
                    try writer.write(match.organization, distanceMeters: match.distanceMeters, localized: language.map { code in
                        match.localized ?? LocalizedPlace(language: code, town: nil, country: nil)
                    })
                }
            }
            try writer.finish()
            try sink.flush()
        case .geojson:
            fflush(nil)
            let sink = FileDescriptorSink.standardOutput()
            let writer = GeoJSONWriter(sink: sink, language: language, pretty: true)
            try writer.begin()
            try store.export(selection, filter: filter, order: order, to: writer)
            try writer.finish()
            try sink.flush()
        }
    }

    /// With a `language`, the table shows the cached localized town (else the Level 1 town)
    /// and country, and JSON carries `language`, `localizedTown` and `localizedCountry`.
    static func print(_ matches: [PlaceMatch], format: OutputFormat, language: String? = nil) throws {
        switch format {
        case .json:
            Console.print(try OrganizationJSON.encode(matches.map { match in
                OrganizationJSON(match.organization, distanceMeters: match.distanceMeters, localized: language.map { code in
                    match.localized ?? LocalizedPlace(language: code, town: nil, country: nil)
                })
            }))
        case .geojson:
            Console.print(try geoJSON(matches, language: language), terminator: "")
        case .table:
            guard !matches.isEmpty else {
                Console.note("No organizations found.")
                return
            }
            let showDistance = matches.contains { $0.distanceMeters != nil }
            let extra = language == nil ? [] : ["Country"]
            var table = TextTable(headers: ["Name", "Type", "Town"] + extra + (showDistance ? ["Distance (km)"] : []),
                                  alignments: [.left, .left, .left] + extra.map { _ in .left } + (showDistance ? [.right] : []))
            for match in matches {
                let organization = match.organization
                var row = [organization.fullName, organization.type.rawValue, match.localized?.town ?? organization.town]
                if language != nil { row.append(match.localized?.country ?? "") }
                if showDistance { row.append(match.distanceMeters.map { String(format: "%.2f", $0 / 1000) } ?? "") }
                table.append(row)
            }
            Console.print(table.render())
        }
    }

    /// A pretty GeoJSON FeatureCollection, as `hubgeo export geojson --pretty` writes it.
    static func geoJSON(_ matches: [PlaceMatch], language: String?) throws -> String {
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, language: language, pretty: true)
        try writer.begin()
        for match in matches { try writer.write(match) }
        try writer.finish()
        return sink.text
    }
}
