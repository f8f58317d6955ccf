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

    @Argument(help: "Southern edge (latitude).")
    var minLatitude: Degrees
    @Argument(help: "Western edge (longitude).")
    var minLongitude: Degrees
    @Argument(help: "Northern edge (latitude).")
    var maxLatitude: Degrees
    @Argument(help: "Eastern edge (longitude).")
    var maxLongitude: Degrees

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        for latitude in [minLatitude.value, maxLatitude.value] where !(-90...90).contains(latitude) {
            throw ValidationError("latitude \(latitude) is outside -90...90")
        }
        for longitude in [minLongitude.value, maxLongitude.value] where !(-180...180).contains(longitude) {
            throw ValidationError("longitude \(longitude) is outside -180...180")
        }
        if minLatitude.value > maxLatitude.value {
            throw ValidationError("MINLAT \(minLatitude.value) is north of MAXLAT \(maxLatitude.value)")
        }
    }

    func run() throws {
        let filter = try query.filter()
        let store = try database.openStoreForQueries()
        let selection = OrganizationSelection.within(west: minLongitude.value, south: minLatitude.value,
                                                     east: maxLongitude.value, north: maxLatitude.value)
        try ResultPrinter.print(store, selection, filter: filter, order: .name, format: query.format)
    }
}

extension BBoxCommand: PlainParsable {
    static func plain(_ arguments: inout PlainArguments) throws -> Self {
        var parsed = Self()
        parsed.minLatitude = try arguments.value()
        parsed.minLongitude = try arguments.value()
        parsed.maxLatitude = try arguments.value()
        parsed.maxLongitude = try arguments.value()
        parsed.query = try QueryOptions.plain(&arguments)
        parsed.database = try DatabaseOptions.plain(&arguments)
        return parsed
    }
}
