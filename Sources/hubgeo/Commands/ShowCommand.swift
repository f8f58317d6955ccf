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

    @OptionGroup var language: LanguageOption
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let source = try language.source()
        // The organization and its localized place: from one snapshot.
        let (organization, localized) = try database.openStoreForQueries().snapshot { store in
            let organization = try store.organization(named: name)
            let localized = try source.map { source in
                try store.localizedPlace(of: organization, source: source)
                    ?? LocalizedPlace(language: source.language, town: nil, country: nil)
            }
            return (organization, localized)
        }
        switch format {
        case .json: Console.printVerbatim(OrganizationJSONWriter.object(organization, localized: localized))
        case .table: Console.print(OrganizationDescription(organization, localized: localized).text)
        case .geojson:
            let match = PlaceMatch(organization: organization, localized: localized)
            Console.printVerbatim(try ResultPrinter.geoJSON([match], language: language.code), terminator: "")
        }
    }
}

extension ShowCommand: PlainParsable {
    static func plain(_ arguments: inout PlainArguments) throws -> Self {
        var parsed = Self()
        parsed.name = try arguments.value()
        parsed.format = try arguments.option("format") ?? .table
        parsed.language = try LanguageOption.plain(&arguments)
        parsed.database = try DatabaseOptions.plain(&arguments)
        return parsed
    }
}
