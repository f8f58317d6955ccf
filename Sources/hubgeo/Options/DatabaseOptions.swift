import ArgumentParser
import HubGeo

/// `--db`: which database file to use.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "Database file.", discussion: "Default: $HUBGEO_DB, else $XDG_DATA_HOME/hubgeo/hubgeo.sqlite.",
        valueName: "path"))
    var path: String?

    var resolvedPath: String { path ?? DatabaseLocation.defaultPath() }

    /// Opens the database, importing the embedded data first when it is empty.
    func openStore() throws -> OrganizationStore {
        let (store, firstImport) = try Importer.openStore(path: resolvedPath)
        if let report = firstImport {
            for note in report.notes { Console.note("note: \(note)") }
            Console.note("No data in \(store.path) yet: imported the built-in Photo Club Hub data "
                + "(\(report.clubs) clubs, \(report.museums) museums, \(report.summary.total) in all).")
        }
        return store
    }
}
