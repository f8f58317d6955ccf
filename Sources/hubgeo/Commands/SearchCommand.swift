import ArgumentParser
import HubGeo

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find organizations by name, nickname or town (case and accents ignored).")

    @Argument(help: "Text to look for.")
    var text: String

    @OptionGroup var query: QueryOptions
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let filter = try query.filter()
        let store = try database.openStoreForQueries()
        try ResultPrinter.print(store, .search(text), filter: filter, order: .name, format: query.format)
    }
}

extension SearchCommand: PlainParsable {
    static func plain(_ arguments: inout PlainArguments) throws -> Self {
        var parsed = Self()
        parsed.text = try arguments.value()
        parsed.query = try QueryOptions.plain(&arguments)
        parsed.database = try DatabaseOptions.plain(&arguments)
        return parsed
    }
}
