import ArgumentParser
import Foundation
import HubGeo

struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Reverse geocode one point with Nominatim, for trying things (not cached).",
        discussion: "Example: hubgeo geocode 51.6779 5.4011 --lang nl")

    @Argument(help: "Latitude in degrees (-90 to 90).")
    var latitude: Degrees

    @Argument(help: "Longitude in degrees (-180 to 180).")
    var longitude: Degrees

    @Option(name: .customLong("lang"), help: ArgumentHelp("Language code.", valueName: "code"))
    var language: String = "en"

    @Flag(help: "Print Nominatim's raw answer instead.")
    var raw = false

    @OptionGroup var nominatim: NominatimOptions

    func validate() throws {
        guard (-90...90).contains(latitude.value) else { throw ValidationError("latitude \(latitude.value) is outside -90...90") }
        guard (-180...180).contains(longitude.value) else { throw ValidationError("longitude \(longitude.value) is outside -180...180") }
        _ = try LanguageList.parse(language)
    }

    func run() throws {
        let configuration = try nominatim.configuration()
        let client = NominatimClient(configuration: configuration)
        let language = try LanguageList.parse(language).joined(separator: ",")
        let answer = try client.reverse(GeoPoint(latitude: latitude.value, longitude: longitude.value), language: language)
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
