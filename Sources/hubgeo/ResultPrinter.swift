import Foundation
import HubGeo

/// Prints query results as a table, as JSON or as GeoJSON.
enum ResultPrinter {
    /// Prints what `selection` picks, in `order`. JSON and GeoJSON stream from the database to
    /// standard output, so memory stays flat however many organizations match; a table needs all
    /// of them for its column widths. With the filter's localization, results carry the cached
    /// localized places (see ``print(_:format:language:)``). Everything comes from one snapshot of the database.
    static func print(_ store: borrowing some OrganizationReading & ~Copyable, _ selection: OrganizationSelection, filter: OrganizationFilter,
                      order: ResultOrder, format: OutputFormat) throws {
        try store.snapshot { store in try print(snapshot: store, selection, filter: filter, order: order, format: format) }
    }

    private static func print(snapshot store: borrowing StoreSnapshot, _ selection: OrganizationSelection, filter: OrganizationFilter,
                              order: ResultOrder, format: OutputFormat) throws {
        let language = filter.language
        var unlocalized = 0
        var total = 0
        func count(_ match: PlaceMatch) {
            total += 1
            if match.localized == nil { unlocalized += 1 }
        }
        /// On stderr: how many results have no cached answer, and where `localize` would get them.
        func noteUnlocalized() {
            guard unlocalized > 0, let source = filter.localization else { return }
            Console.note("No answer cached in \(source.language) from \(source.endpoint) at zoom \(source.zoom) for \(unlocalized) of "
                + "\(counted(total, "organization")) (hubgeo localize --lang \(source.language) caches them).")
        }
        switch format {
        case .table:
            var matches: [PlaceMatch] = []
            try store.forEachChunk(selection, filter: filter, order: order) { matches += $0 }
            matches.forEach(count)
            printTable(matches, language: language)
            noteUnlocalized()
        case .json:
            fflush(nil)
            let sink = FileDescriptorSink.standardOutput(format: .json)
            let writer = OrganizationJSONWriter(sink: sink)
            try writer.begin()
            try store.forEachChunk(selection, filter: filter, order: order) { chunk in
                for match in chunk {
                    count(match)
                    try writer.write(match.organization, distanceMeters: match.distanceMeters, localized: language.map { code in
                        match.localized ?? LocalizedPlace(language: code, town: nil, country: nil)
                    })
                }
            }
            try writer.finish()
            try sink.flush()
            noteUnlocalized()
        case .geojson:
            fflush(nil)
            let sink = FileDescriptorSink.standardOutput(format: .json)
            let writer = GeoJSONWriter(sink: sink, language: language, pretty: true)
            try writer.begin()
            try store.export(selection, filter: filter, order: order, to: writer)
            try writer.finish()
            try sink.flush()
        }
    }

    /// With a `language`, the table shows the localized town (the Level 1 town, marked with
    /// ``level1Marker``, where Nominatim has none; the Level 1 town, unmarked, where nothing is
    /// cached) and country.
    static func printTable(_ matches: [PlaceMatch], language: String? = nil) {
        guard !matches.isEmpty else {
            Console.note("No organizations found.")
            return
        }
        let showDistance = matches.contains { $0.distanceMeters != nil }
        let extra = language == nil ? [] : ["Country"]
        var table = TextTable(headers: ["Name", "Type", "Town"] + extra + (showDistance ? ["Distance (km)"] : []),
                              alignments: [.left, .left, .left] + extra.map { _ in .left } + (showDistance ? [.right] : []))
        var marked = false
        for match in matches {
            let organization = match.organization
            let town = match.localized.map(markedTown) ?? organization.town
            marked = marked || match.localized?.townSource == .level1
            var row = [organization.fullName, organization.type.rawValue, town]
            if language != nil { row.append(match.localized?.country ?? "") }
            if showDistance { row.append(match.distanceMeters.map { twoDecimals($0 / 1000) } ?? "") }
            table.append(row)
        }
        Console.print(table.render())
        if marked, let language { Console.print("\n" + level1Legend(language: language)) }
    }

    /// `value` as C's `%.2f` writes it: the exact binary value rounded to hundredths, halfway
    /// cases to even, a point for the decimals. Worked out in integers (a C variadic call from
    /// Swift costs a first-use type check of its arguments, a tenth of a millisecond at start-up);
    /// values beyond 2^52 hundredths, infinities and NaN go to `vsnprintf`.
    static func twoDecimals(_ value: Double) -> String {
        let magnitude = value.magnitude
        guard magnitude < 0x1p52 / 100 else { return printfTwoDecimals(value) }
        // magnitude * 100 = product + error exactly (fma gives the product's rounding error).
        let product = magnitude * 100
        let error = (-product).addingProduct(magnitude, 100)
        let whole = product.rounded(.down)
        // Exact below 2^52, and a whole number of the product's ulps, which the error (at most half
        // an ulp) cannot cross: only at exactly half does the error decide, and at an exact tie, evenness.
        let beyondHalf = product - whole - 0.5
        var hundredths = UInt64(whole)
        if beyondHalf > 0 || (beyondHalf == 0 && (error > 0 || (error == 0 && hundredths % 2 == 1))) {
            hundredths += 1
        }
        let fraction = hundredths % 100
        return (value.sign == .minus ? "-" : "") + String(hundredths / 100) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }

    private static func printfTwoDecimals(_ value: Double) -> String {
        // The longest "%.2f" of a Double: 309 digits, a sign, a point, two decimals, the NUL.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 320) { buffer in
            _ = withVaList([value]) { vsnprintf(buffer.baseAddress!, buffer.count, "%.2f", $0) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// Follows a town the Level 1 data gave where Nominatim has none, in tables.
    static let level1Marker = "*"

    /// The localized town as a table shows it: marked when it is the Level 1 town.
    static func markedTown(_ place: LocalizedPlace) -> String {
        guard let town = place.town else { return "" }
        return place.townSource == .level1 ? "\(town) \(level1Marker)" : town
    }

    /// The line under a table with marked towns that explains the marker.
    static func level1Legend(language: String) -> String {
        "\(level1Marker) Level 1 town: the cached Nominatim answer (\(language)) has no town at these coordinates"
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
