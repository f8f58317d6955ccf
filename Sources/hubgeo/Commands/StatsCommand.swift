import ArgumentParser
import HubGeo

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts by type, extent, database path, data source and import time.")

    @Option(help: "Output format: table or json.")
    var format: StatsFormat = .table

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let statistics = try database.openStoreForQueries().statistics()
        switch format {
        case .json:
            Console.printVerbatim(try PrettyJSON.string(statistics))
        case .table:
            var table = TextTable(headers: ["", ""])
            table.rows = [
                ["Clubs", "\(statistics.clubs) (\(statistics.clubsWithLevel2) with a Level 2 file)"],
                ["Museums", "\(statistics.museums)"],
                ["Extent", statistics.southWest.map { sw in
                    let ne = statistics.northEast!
                    return "lat \(sw.latitude) to \(ne.latitude), lon \(sw.longitude) to \(ne.longitude)"
                } ?? "-"],
                ["Database", statistics.databasePath ?? "-"],
                ["Source", statistics.source ?? "-"],
                ["Imported", statistics.importedAt.map(RFC3339.string) ?? "-"],
            ]
            Console.print(table.render(includeHeader: false))
        }
    }
}

/// Statistics are no places: table or JSON only.
enum StatsFormat: String, ExpressibleByArgument, CaseIterable {
    case table
    case json
}
