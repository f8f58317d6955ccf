import ArgumentParser
import HubGeo

/// `--db`: which database file to use.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "Database file.", discussion: "Default: $HUBGEO_DB, else $XDG_DATA_HOME/hubgeo/hubgeo.sqlite.",
        valueName: "path"))
    var path: String?

    var resolvedPath: String { path ?? DatabaseLocation.defaultPath() }

    /// Opens the database for writing, importing the embedded data first when it is empty.
    func openStore() throws -> OrganizationStore {
        let (store, firstImport) = try FirstUse.open(path: resolvedPath, access: .readWrite)
        noteFirstImport(store, firstImport)
        return store
    }

    /// Opens the database for a query: read-only, never changed. A missing or empty database
    /// first gets the embedded data (the one write a query may make). One connection, for a
    /// command that reads and exits; `.readOnlyPool` for concurrent readers (the server).
    ///
    /// The store stays open until the process exits, which releases the file and its locks: a
    /// reader leaves SQLite nothing to finish, and closing would cost a query's start-up a fifth of
    /// its instructions (GRDB's queue teardown starts a dispatch thread and unregisters from the
    /// notification center).
    func openStoreForQueries(access: OrganizationStore.Access = .readOnly) throws -> OrganizationStore {
        let (store, firstImport) = try FirstUse.open(path: resolvedPath, access: access)
        noteFirstImport(store, firstImport)
        Self.openUntilExit.append(store)
        return store
    }

    /// The stores ``openStoreForQueries(access:)`` opened: never released, so never closed.
    nonisolated(unsafe) private static var openUntilExit: [OrganizationStore] = []

    private func noteFirstImport(_ store: OrganizationStore, _ firstImport: Importer.Report?) {
        if let report = firstImport {
            for note in report.notes { Console.note("note: \(note)") }
            Console.note("No data in \(store.path) yet: imported the built-in Photo Club Hub data "
                + "(\(counted(report.clubs, "club")), \(counted(report.museums, "museum")), \(report.summary.total) in all).")
        }
    }
}
