import ArgumentParser
import HubGeo

struct BBoxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bbox",
        abstract: "List organizations inside a latitude/longitude box.",
        discussion: """
            Corners are given south-west then north-east: MINLAT MINLON MAXLAT MAXLON. A box whose \
            MINLON is greater than its MAXLON crosses the antimeridian (e.g. 60 170 70 -170).
            Example: hubgeo bbox 51.3 5.3 51.5 5.6
            """)

    /// The corners as typed, and anything else the parser did not recognise (``UnrecognizedInputs``:
    /// `hubgeo bbox -34 150 -33 152`).
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
        "Southern edge (latitude), western edge (longitude), northern edge (latitude), eastern edge (longitude), in degrees.",
        valueName: "minlat> <minlon> <maxlat> <maxlon"))
    var corners: [String]

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    /// The box the corners give; throws the usage error for anything else.
    func box() throws -> OrganizationSelection {
        let values = try UnrecognizedInputs.numbers(corners, named: ["<minlat>", "<minlon>", "<maxlat>", "<maxlon>"], of: Self.self)
        for latitude in [values[0], values[2]] { try SelectionOptions.checkLatitude(latitude) }
        for longitude in [values[1], values[3]] { try SelectionOptions.checkLongitude(longitude) }
        if values[0] > values[2] {
            throw ValidationError("MINLAT \(values[0]) is north of MAXLAT \(values[2])")
        }
        return .within(west: values[1], south: values[0], east: values[3], north: values[2])
    }

    func validate() throws {
        _ = try box()
    }

    func run() throws {
        let filter = try query.filter()
        let store = try database.openStoreForQueries()
        let selection = try box()
        try ResultPrinter.print(store, selection, filter: filter, order: .name, format: query.format)
    }
}
