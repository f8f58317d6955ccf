import ArgumentParser
import HubGeo

@main
struct HubGeoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hubgeo",
        abstract: "Find, localize and export Photo Club Hub clubs and museums.")
}
