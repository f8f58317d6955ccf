import ArgumentParser
import Foundation
import HubGeo

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import (sync) a Level 1 include tree and its Level 2 files into the database.",
        discussion: """
            SOURCE is a Level 1 file, a folder holding root_.level1.json (or the older root.level1.json), \
            or an http(s) URL; default: the data built into hubgeo. Level 2 files are found as \
            <nickName>.level2.json next to the Level 1 file that declares the club.
            The import is a sync in one transaction: organizations no longer in the data are removed. \
            Malformed JSON, an include cycle or a missing include fail the import and leave the database \
            as it was; an unusable record is skipped with a warning naming its file and JSON path.
            """)

    @Argument(help: "Level 1 root: file, folder or URL.")
    var source: String?

    @Option(name: .customLong("level2"), help: "A Level 2 file to merge besides those found by nickname (repeatable).")
    var level2Files: [String] = []

    @Flag(help: "Also list every organization added, changed or removed.")
    var verbose = false

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let loader = HubLoader(reader: .standard(configuration: HTTPSettings.configuration(), maxFileBytes: HTTPSettings.maxFileBytes()))
        let root: DocumentLocation = source.map(DocumentLocation.init(argument:)) ?? .embedded(EmbeddedData.rootName)
        let path = database.resolvedPath
        let level2 = level2Files.map(DocumentLocation.init(argument:))
        let isNewDatabase = !FileManager.default.fileExists(atPath: path)
        if !isNewDatabase {
            // Read everything once before opening an existing database: an import that fails must leave it
            // byte for byte as it was, and even opening it changes a few header bytes (SpatiaLite's set-up).
            _ = try loader.load(root: root, level2Files: level2) { _ in }
        }
        let store = try OrganizationStore(path: path)
        var clubs = 0, museums = 0
        var overrides: [(OrganizationIdentity, FieldOverride)] = []
        var data: HubData?
        // Organizations stream from the files into the database; nothing is written unless all goes well.
        let summary: ImportSummary
        do {
            summary = try store.importOrganizations(source: root.description) { add in
                data = try loader.load(root: root, level2Files: level2) { organization in
                    if organization.type == .club { clubs += 1 } else { museums += 1 }
                    overrides += organization.overrides.map { (organization.identity, $0) }
                    try add(organization)
                }
            }
        } catch {
            if isNewDatabase { store.removeFiles() }  // leave no empty database behind a failed first import
            throw error
        }
        guard let data else { return }
        for diagnostic in data.diagnostics { Console.note(diagnostic.description) }
        for (identity, override) in overrides {
            Console.print("override  \(identity): \(override.field): \(override.level1Value ?? "(none)") -> \(override.level2Value)")
        }
        if verbose {
            for identity in summary.added { Console.print("added     \(identity)") }
            for identity in summary.changed { Console.print("changed   \(identity)") }
            for identity in summary.removed { Console.print("removed   \(identity)") }
            let unlisted = summary.addedCount + summary.changedCount + summary.removedCount
                - summary.added.count - summary.changed.count - summary.removed.count
            if unlisted > 0 { Console.print("(\(unlisted) more not listed)") }
        }
        Console.print("""
            Imported \(data.source) into \(store.path)
              \(clubs) clubs, \(museums) museums from \(data.level1Files.count) Level 1 files; \
            \(data.level2Files.count) Level 2 files merged (\(overrides.count) overrides), \(data.orphanLevel2Files.count) orphans
              \(summary.addedCount) added, \(summary.changedCount) changed, \(summary.removedCount) removed, \
            \(summary.unchanged) unchanged; \(data.diagnostics.count) warnings
            """)
    }
}
