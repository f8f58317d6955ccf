import ArgumentParser
import HubGeo

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find organizations by name, nickname or town (case and accents ignored).")

    /// The text as typed, and anything else the parser did not recognise (``UnrecognizedInputs``:
    /// `hubgeo search -5` looks for "-5").
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Text to look for.", valueName: "text"))
    var typed: [String]

    /// The text to look for, exactly as typed.
    func text() throws -> String {
        try UnrecognizedInputs.text(typed, named: "<text>", of: Self.self)
    }

    func validate() throws {
        _ = try text()
    }

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let filter = try query.filter()
        let store = try database.openStoreForQueries()
        try ResultPrinter.print(store, .search(try text()), filter: filter, order: .name, format: query.format)
    }
}
