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
        let (store, firstImport) = try OrganizationStore.openImportingEmbeddedDataIfEmpty(path: resolvedPath)
        if let (data, summary) = firstImport {
            Console.note("No data in \(store.path) yet: imported the built-in Photo Club Hub data "
                + "(\(data.organizations.filter { $0.type == .club }.count) clubs, "
                + "\(data.organizations.filter { $0.type == .museum }.count) museums, \(summary.total) in all).")
        }
        return store
    }
}
