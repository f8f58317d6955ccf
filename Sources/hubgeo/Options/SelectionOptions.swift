import ArgumentParser
import HubGeo

/// `--type`, `--near LAT LON --km R`, `--bbox`, `--search`: which organizations `export` and `map` write.
struct SelectionOptions: ParsableArguments {
    @Option(help: "Only organizations of this type (club or museum).")
    var type: OrganizationType?

    // --near and --bbox read their first number; the others come from `unrecognized`
    // (``UnrecognizedInputs``: the parser cannot hand a negative number to an option's values).
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Only organizations within --km of this point.", valueName: "lat lon"))
    var near: [Degrees] = []

    @Option(parsing: .unconditional, help: "Radius in kilometres for --near.")
    var km: Double?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Only organizations inside this box (south-west then north-east corner).", valueName: "minlat minlon maxlat maxlon"))
    var bbox: [Degrees] = []

    @Option(help: "Only organizations whose name, nickname or town contains this text.")
    var search: String?

    /// What the parser recognised as nothing else, in the order typed: the numbers of --near and
    /// --bbox after their first, then anything the command refuses (``finish(_:)``).
    @Argument(parsing: .allUnrecognized, help: .private)
    var unrecognized: [String] = []

    mutating func validate() throws {
        var numbers = UnrecognizedInputs(unrecognized)
        if near.count == 1 { near += numbers.take(upTo: 1) }
        if bbox.count == 1 { bbox += numbers.take(upTo: 3) }
        unrecognized = numbers.remaining
        let filters = [!near.isEmpty, !bbox.isEmpty, search != nil].filter { $0 }.count
        if filters > 1 { throw ValidationError("give at most one of --near, --bbox and --search") }
        if !near.isEmpty {
            guard near.count == 2 else { throw ValidationError("--near takes two numbers: LAT LON") }
            try Self.checkLatitude(near[0].value)
            try Self.checkLongitude(near[1].value)
            guard let km else { throw ValidationError("--near needs --km R") }
            guard km > 0 && km.isFinite else { throw ValidationError("--km must be a positive number of kilometres") }
        } else if km != nil {
            throw ValidationError("--km goes with --near")
        }
        if !bbox.isEmpty {
            guard bbox.count == 4 else { throw ValidationError("--bbox takes four numbers: MINLAT MINLON MAXLAT MAXLON") }
            try Self.checkLatitude(bbox[0].value)
            try Self.checkLongitude(bbox[1].value)
            try Self.checkLatitude(bbox[2].value)
            try Self.checkLongitude(bbox[3].value)
            if bbox[0].value > bbox[2].value {
                throw ValidationError("MINLAT \(bbox[0].value) is north of MAXLAT \(bbox[2].value)")
            }
        }
    }

    /// Refuses what is left over, as the parser would for `command` (each command with these
    /// options calls it from its `validate()`).
    func finish(_ command: ParsableCommand.Type) throws {
        try UnrecognizedInputs(unrecognized).finish(command)
    }

    var selection: OrganizationSelection {
        if near.count == 2, let km {
            return .near(GeoPoint(latitude: near[0].value, longitude: near[1].value), radiusMeters: km * 1000)
        }
        if bbox.count == 4 {
            return .within(west: bbox[1].value, south: bbox[0].value, east: bbox[3].value, north: bbox[2].value)
        }
        if let search { return .search(search) }
        return .all
    }

    static func checkLatitude(_ value: Double) throws {
        guard (-90...90).contains(value) else { throw ValidationError("latitude \(value) is outside -90...90") }
    }

    static func checkLongitude(_ value: Double) throws {
        guard (-180...180).contains(value) else { throw ValidationError("longitude \(value) is outside -180...180") }
    }
}
