import ArgumentParser
import Foundation
import HubGeo

@main
struct HubGeoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hubgeo",
        abstract: "Find, localize and export Photo Club Hub clubs and museums.",
        discussion: """
            The first query with no database imports the Photo Club Hub data built into hubgeo.
            The database lives at $HUBGEO_DB, else $XDG_DATA_HOME/hubgeo/hubgeo.sqlite
            (~/.local/share/hubgeo/hubgeo.sqlite); --db overrides both.
            """,
        version: HubGeoVersion.current,
        subcommands: [
            ImportCommand.self, NearCommand.self, BBoxCommand.self, SearchCommand.self,
            ShowCommand.self, StatsCommand.self, LocalizeCommand.self, GeocodeCommand.self, LocateCommand.self, ExportCommand.self, TilesCommand.self, MapCommand.self, ServeCommand.self,
            ValidateCommand.self, SchemaCommand.self, DiffCommand.self, SourcesCommand.self,
        ])

    static func main() async {
        var failure: Error?
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `hubgeo --version` is answered as the parser would, without it: the parser reflects over
        // every command's arguments first (~13 M instructions, most of a start-up).
        if arguments == ["--version"] {
            Console.printVerbatim(configuration.version)
            if let writeFailure = Console.finish() { exit(reporting: writeFailure) }
            return
        }
        do {
            var command = try parseAsRoot(arguments)
            // `serve` is the one async command. A cast to its type costs nothing; a cast to the
            // AsyncParsableCommand protocol scans the conformance tables (~0.7 M instructions,
            // 0.8 % of a `near`), for every command.
            if let serve = command as? ServeCommand {
                try await serve.run()
            } else {
                try command.run()
            }
        } catch {
            failure = SubcommandSuggestion.error(for: Array(CommandLine.arguments.dropFirst()), of: self) ?? error
        }
        // Results that could not be written are a failure (exit 1), whatever the command concluded.
        if let writeFailure = Console.finish() {
            if let failure, !(failure is ExitCode) {
                Console.note("Error: \(writeFailure.localizedDescription)")
                exit(reporting: failure)
            }
            exit(reporting: writeFailure)
        }
        // Whatever failed once SIGINT or SIGTERM arrived (see Interruption) stopped because of it.
        if let failure, !(failure is ExitCode), Interruption.isRequested {
            Console.note(failure is Interrupted ? "Interrupted." : "Interrupted: \(DatabaseFailure(failure)?.userMessage ?? failure.localizedDescription)")
            exit(withError: ExitCode(130))
        }
        if let failure { exit(reporting: failure) }
    }

    /// Exits as `exit(withError:)` does, with the message through `Console`: an error may quote
    /// the data (a file's include, a remote document's text), which never reaches the terminal raw.
    private static func exit(reporting error: Error) -> Never {
        let code = exitCode(for: error)
        // A failed SQLite call is shown by its problem and result code, never its SQL.
        let message = DatabaseFailure(error).map { "Error: \($0.userMessage)" } ?? fullMessage(for: error)
        if !message.isEmpty {
            if code == .success { Console.printVerbatim(message) } else { Console.note(message) }
        }
        exit(withError: code)
    }
}
