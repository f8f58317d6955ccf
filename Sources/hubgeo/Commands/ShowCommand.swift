import ArgumentParser
import HubGeo

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show everything known about one organization.",
        discussion: "NAME is a nickname (fgWaalre), a full name, an id, or text that only one organization's names contain.")

    /// The name as typed, and anything else the parser did not recognise (``UnrecognizedInputs``:
    /// `hubgeo show -- -1` looks for "-1").
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Which organization.", valueName: "name"))
    var typed: [String]

    /// The organization's name, exactly as typed.
    func name() throws -> String {
        try UnrecognizedInputs.text(typed, named: "<name>", of: Self.self)
    }

    func validate() throws {
        _ = try name()
    }

    @Option(help: "Output format: table, json or geojson.")
    var format: OutputFormat = .table

    @OptionGroup var language: LanguageOption
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let source = try language.source()
        // The organization and its localized place: from one snapshot.
        let (organization, localized) = try database.openStoreForQueries().snapshot { store in
            let organization = try store.organization(named: try name())
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
