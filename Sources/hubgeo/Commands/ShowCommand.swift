import ArgumentParser
import Foundation
import HubGeo

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show everything known about one organization.",
        discussion: "NAME is a nickname (fgWaalre), a full name, an id, or text that only one organization's names contain.")

    @Argument(help: "Which organization.")
    var name: String

    @Option(help: "Output format: table, json or geojson.")
    var format: OutputFormat = .table

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let store = try database.openStore()
        let organization = try store.organization(named: name)
        switch format {
        case .json: Console.print(try OrganizationJSON.encode(OrganizationJSON(organization)))
        case .table: Console.print(OrganizationDescription(organization).text)
        case .geojson: Console.print(try ResultPrinter.geoJSON([PlaceMatch(organization: organization)]), terminator: "")
        }
    }
}
