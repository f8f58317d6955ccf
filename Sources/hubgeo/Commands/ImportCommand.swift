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
        let importer = Importer(reader: .standard(configuration: HTTPSettings.configuration(), maxFileBytes: HTTPSettings.maxFileBytes()))
        let root: DocumentLocation = source.map(DocumentLocation.init(argument:)) ?? .embedded(EmbeddedData.rootName)
        let report = try importer.run(root: root, level2Files: level2Files.map(DocumentLocation.init(argument:)),
                                      database: database.resolvedPath)
        let summary = report.summary, data = report.data
        for note in report.notes { Console.note("note: \(note)") }
        for diagnostic in data.diagnostics { Console.note(diagnostic.description) }
        for applied in report.overrides {
            let override = applied.override
            Console.print("override  \(applied.organization): \(override.field): \(override.level1Value ?? "(none)") -> \(override.level2Value)")
        }
        if verbose {
            for identity in summary.added { Console.print("added     \(identity)") }
            for identity in summary.changed { Console.print("changed   \(identity)") }
            for identity in summary.removed { Console.print("removed   \(identity)") }
            let unlisted = summary.addedCount + summary.changedCount + summary.removedCount
                - summary.added.count - summary.changed.count - summary.removed.count
            if unlisted > 0 { Console.print("(\(unlisted) more not listed)") }
        }
        for rename in summary.probableRenames {
            let same = rename.sameFullName ? "same full name" : "same nickname"
            Console.print("renamed?  \(rename.removed) -> \(rename.added) (\(same), \(Int(rename.distanceMeters.rounded())) m apart): "
                + "removed and added; probably one organization whose town or name was edited")
        }
        Console.print("""
            Imported \(data.source) into \(report.databasePath)
              \(report.clubs) clubs, \(report.museums) museums from \(data.level1Files.count) Level 1 files; \
            \(data.level2Files.count) Level 2 files merged (\(report.overrides.count) overrides), \(data.orphanLevel2Files.count) orphans
              \(summary.addedCount) added, \(summary.changedCount) changed, \(summary.removedCount) removed, \
            \(summary.unchanged) unchanged\(summary.probableRenames.isEmpty ? "" : " (\(summary.probableRenames.count) probable renames)"); \
            \(data.diagnostics.count) warnings
            """)
    }
}
