import ArgumentParser
import HubGeo

struct NearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "List organizations near a point, nearest first.",
        discussion: """
            Distances are geodesic, on the WGS84 ellipsoid. Give --km for all organizations within \
            a radius, or --nearest for the N nearest ones whatever their distance (default: --nearest 10). \
            --offset skips the nearest ones first and --limit prints at most that many (0: none), as in every query.
            Example: hubgeo near 51.4 5.4 --km 20
            """)

    /// The latitude and longitude as typed, and anything else the parser did not recognise
    /// (``UnrecognizedInputs``: `hubgeo near -33.87 151.21`).
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
        "Latitude (-90 to 90) then longitude (-180 to 180), in degrees.", valueName: "latitude> <longitude"))
    var point: [String]

    @Option(help: "Radius in kilometres.")
    var km: Double?

    @Option(help: ArgumentHelp("The N nearest organizations (1 to 1000000000).", valueName: "N"))
    var nearest: Int?

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    /// The point `point` gives; throws the usage error for anything else.
    func center() throws -> GeoPoint {
        try UnrecognizedInputs.point(point, of: Self.self)
    }

    func validate() throws {
        _ = try center()
        if km != nil && nearest != nil { throw ValidationError("give --km or --nearest, not both") }
        if let km, !(km > 0 && km.isFinite) { throw ValidationError("--km must be a positive number of kilometres") }
        try CountBounds.check(nearest, "--nearest", minimum: 1)
    }

    func run() throws {
        let queryFilter = try query.filter()
        let center = try center()
        // The circle that holds the nearest and its organizations: from one snapshot.
        try database.openStoreForQueries().snapshot { store in
            let (selection, filter) = if let km {
                (OrganizationSelection.near(center, radiusMeters: km * 1000), queryFilter)
            } else {
                try store.nearestSelection(center, count: nearest ?? 10, filter: queryFilter)
            }
            try ResultPrinter.print(store, selection, filter: filter, order: .distance, format: query.format)
        }
    }
}
