import Foundation
import HubGeo

/// Prints query results as a table, as JSON or as GeoJSON.
enum ResultPrinter {
    static func print(_ matches: [PlaceMatch], format: OutputFormat) throws {
        switch format {
        case .json:
            Console.print(try OrganizationJSON.encode(matches.map { OrganizationJSON($0.organization, distanceMeters: $0.distanceMeters) }))
        case .geojson:
            Console.print(try geoJSON(matches), terminator: "")
        case .table:
            guard !matches.isEmpty else {
                Console.note("No organizations found.")
                return
            }
            let showDistance = matches.contains { $0.distanceMeters != nil }
            var table = TextTable(headers: ["Name", "Type", "Town"] + (showDistance ? ["Distance (km)"] : []),
                                  alignments: [.left, .left, .left] + (showDistance ? [.right] : []))
            for match in matches {
                let organization = match.organization
                var row = [organization.fullName, organization.type.rawValue, organization.town]
                if showDistance { row.append(match.distanceMeters.map { String(format: "%.2f", $0 / 1000) } ?? "") }
                table.append(row)
            }
            Console.print(table.render())
        }
    }

    /// A pretty GeoJSON FeatureCollection, as `hubgeo export geojson --pretty` writes it.
    static func geoJSON(_ matches: [PlaceMatch]) throws -> String {
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, pretty: true)
        try writer.begin()
        for match in matches { try writer.write(match) }
        try writer.finish()
        return sink.text
    }
}
