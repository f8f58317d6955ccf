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

    @Argument(help: "Latitude in degrees (-90 to 90).")
    var latitude: Degrees

    @Argument(help: "Longitude in degrees (-180 to 180).")
    var longitude: Degrees

    @Option(help: "Radius in kilometres.")
    var km: Double?

    @Option(help: ArgumentHelp("The N nearest organizations (1 to 1000000000).", valueName: "N"))
    var nearest: Int?

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (-90...90).contains(latitude.value) else { throw ValidationError("latitude \(latitude.value) is outside -90...90") }
        guard (-180...180).contains(longitude.value) else { throw ValidationError("longitude \(longitude.value) is outside -180...180") }
        if km != nil && nearest != nil { throw ValidationError("give --km or --nearest, not both") }
        if let km, !(km > 0 && km.isFinite) { throw ValidationError("--km must be a positive number of kilometres") }
        try CountBounds.check(nearest, "--nearest", minimum: 1)
    }

    func run() throws {
        let queryFilter = try query.filter()
        let center = GeoPoint(latitude: latitude.value, longitude: longitude.value)
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

extension NearCommand: PlainParsable {
    static func plain(_ arguments: inout PlainArguments) throws -> Self {
        var parsed = Self()
        parsed.latitude = try arguments.value()
        parsed.longitude = try arguments.value()
        parsed.km = try arguments.option("km")
        parsed.nearest = try arguments.option("nearest")
        parsed.query = try QueryOptions.plain(&arguments)
        parsed.database = try DatabaseOptions.plain(&arguments)
        return parsed
    }
}
