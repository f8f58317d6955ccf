import ArgumentParser
import HubGeo

struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Reverse geocode one point with Nominatim, for trying things (not cached).",
        discussion: "Example: hubgeo geocode 51.6779 5.4011 --lang nl")

    /// The latitude and longitude as typed (``UnrecognizedInputs``: `hubgeo geocode -33.87 151.21`).
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
        "Latitude (-90 to 90) then longitude (-180 to 180), in degrees.", valueName: "latitude> <longitude"))
    var point: [String]

    @Option(name: .customLong("lang"), help: ArgumentHelp("Language code.", valueName: "code"))
    var language: String = "en"

    @Flag(help: "Print Nominatim's raw answer instead.")
    var raw = false

    @OptionGroup var nominatim: NominatimOptions
    @OptionGroup var zoom: ZoomOption

    func validate() throws {
        _ = try UnrecognizedInputs.point(point, of: Self.self)
        _ = try LanguageList.parse(language)
    }

    func run() throws {
        let configuration = try nominatim.configuration(zoom: zoom)
        let client = NominatimClient(configuration: configuration)
        let language = try LanguageList.parse(language).joined(separator: ",")
        let answer = try client.reverse(try UnrecognizedInputs.point(point, of: Self.self), language: language)
        if raw {
            Console.printVerbatim(String(decoding: answer.body, as: UTF8.self))
            return
        }
        let result = answer.result
        var table = TextTable(headers: ["", ""])
        if result.status == .noResult {
            table.append(["Result", "none (Nominatim: Unable to geocode)"])
        } else {
            table.append(["Town", result.town.map { "\($0) (address.\(result.townKey ?? "?"))" } ?? "(none)"])
            table.append(["Country", result.country.map { "\($0) (\(result.countryCode ?? "?"))" } ?? "(none)"])
            if let type = result.addressType { table.append(["Returned object", "\(result.name ?? "") (\(type))"]) }
            if let display = result.displayName { table.append(["Display name", display]) }
        }
        table.append(["Language", language])
        table.append(["Request", URLRedaction.redacted(answer.url)])
        Console.print(table.render(includeHeader: false))
    }
}
