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
            Documents fetched by URL are kept in the database's document cache: a re-import asks the \
            server whether each changed (If-None-Match / If-Modified-Since) and reuses the stored copy \
            on a 304; a 5xx, a timeout or a reset keeps the last good copy, with a warning.
            A re-import reads again every document the last import read (Level 1 and Level 2 files, and \
            the folders where Level 2 files are looked for) and hashes it; when none changed, it parses \
            none and keeps the organizations as they are. It reads everything when any changed, when \
            another program wrote the organizations since, or with --reread.
            Ctrl-C or SIGTERM stops the import at once, also during a request, and leaves the database \
            as it was (exit status 130).
            """)

    @Argument(help: "Level 1 root: file, folder or URL.")
    var source: String?

    @Option(name: .customLong("level2"), help: "A Level 2 file to merge besides those found by nickname (repeatable).")
    var level2Files: [String] = []

    @Flag(name: .customLong("follow-include-urls"),
          help: "Follow each include's URL as written instead of reading its NAME.level1.json next to the including file.")
    var followIncludeURLs = false

    @Flag(help: "Read and sync every document even when none changed since the last import.")
    var reread = false

    @Flag(help: "Also list every organization added, changed or removed, and every document fetched by URL.")
    var verbose = false

    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "Make no request for a cached document younger than this (e.g. 7d, 12h, 30m, 90s).", valueName: "duration"))
    var maxAge: String?

    @Flag(help: "Ignore the document cache: fetch every document whole (and store it).")
    var refresh = false

    @Flag(help: "Make no request: import from the document cache only (a document never fetched is an error).")
    var offline = false

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if [maxAge != nil, refresh, offline].filter({ $0 }).count > 1 {
            throw ValidationError("--max-age, --refresh and --offline exclude each other; give one")
        }
        if let maxAge, DocumentCachePolicy.duration(maxAge) == nil {
            throw ValidationError("--max-age must be a duration such as 7d, 12h, 30m or 90s (units s, m, h, d, w), not \"\(maxAge)\"")
        }
    }

    var policy: DocumentCachePolicy {
        if offline { return .offline }
        if refresh { return .refresh }
        if let seconds = maxAge.flatMap(DocumentCachePolicy.duration) { return .maxAge(seconds) }
        return .revalidate
    }

    func run() throws {
        Interruption.installSignalHandlers()
        var importer = Importer(remote: CachedRemoteReader(configuration: try HTTPSettings.configuration(),
                                                           maxFileBytes: try HTTPSettings.maxFileBytes(), policy: policy))
        importer.followsIncludeURLs = followIncludeURLs
        importer.rereadsEverything = reread
        let root: DocumentLocation = source.map(DocumentLocation.init(argument:)) ?? .embedded(EmbeddedData.rootName)
        let report: Importer.Report
        do {
            report = try importer.run(root: root, level2Files: level2Files.map(DocumentLocation.init(argument:)),
                                      database: database.resolvedPath)
        } catch where Interruption.isRequested {
            Console.note("Interrupted: nothing was imported; the database is as it was.")
            throw ExitCode(130)
        }
        let summary = report.summary, data = report.loaded
        for note in report.notes { Console.note("note: \(note)") }
        if let documents = report.documents {
            for warning in documents.warnings { Console.note(warning) }
            if offline {
                for document in documents.fromCache {
                    Console.note("offline: \(document.url): cached copy \(RFC3339.age(document.age ?? 0)) old")
                }
                let absent = documents.documents.filter { $0.outcome == .absent }
                if !absent.isEmpty {
                    let oldest = absent.compactMap(\.age).max() ?? 0
                    Console.note("offline: \(absent.count) documents known not to exist (answers up to \(RFC3339.age(oldest)) old)")
                }
            }
        }
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
            for document in report.documents?.documents ?? [] {
                let age = document.age.map { " (\(RFC3339.age($0)) old)" } ?? ""
                Console.print("\(document.outcome.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(document.url)\(age)")
            }
        }
        for rename in summary.probableRenames {
            let same = rename.sameFullName ? "same full name" : "same nickname"
            Console.print("renamed?  \(rename.removed) -> \(rename.added) (\(same), \(Int(rename.distanceMeters.rounded())) m apart): "
                + "removed and added; probably one organization whose town or name was edited")
        }
        Console.print("""
            Imported \(data.source) into \(report.databasePath)
              \(counted(report.clubs, "club")), \(counted(report.museums, "museum")) from \(counted(data.level1Files.count, "Level 1 file")); \
            \(counted(data.level2Files.count, "Level 2 file")) merged (\(counted(report.overrides.count, "override"))), \
            \(counted(data.orphanLevel2Files.count, "orphan"))
              \(summary.addedCount) added, \(summary.changedCount) changed, \(summary.removedCount) removed, \
            \(summary.unchanged) unchanged\(summary.probableRenames.isEmpty ? "" : " (\(counted(summary.probableRenames.count, "probable rename")))"); \
            \(counted(data.diagnostics.count, "warning"))
            """)
        if report.keptUnchanged {
            Console.print("  Unchanged since the last import: \(counted(report.documentsRead, "document")) read and hashed, none parsed; "
                + "the organizations are as they were")
        }
        guard let documents = report.documents, !documents.documents.isEmpty else { return }
        Console.print("  " + Self.describe(documents))
        if documents.nothingChanged && summary.addedCount + summary.changedCount + summary.removedCount == 0 {
            Console.print("  Nothing changed since the last import: the organizations are untouched.")
        }
    }

    /// "Documents: 2 fetched, 40 not modified, 3 from the cache (ages 2h to 3d 1h), 86 absent; 2 requests, 12,345 bytes transferred"
    static func describe(_ traffic: DocumentTraffic) -> String {
        let ages = traffic.fromCache.compactMap(\.age)
        var fromCache = "\(traffic.fromCache.count) served from the cache"
        if let youngest = ages.min(), let oldest = ages.max() {
            fromCache += youngest == oldest || RFC3339.age(youngest) == RFC3339.age(oldest)
                ? " (\(RFC3339.age(oldest)) old)" : " (\(RFC3339.age(youngest)) to \(RFC3339.age(oldest)) old)"
        }
        let bytes = traffic.bytesTransferred.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        return "Documents: \(traffic.count(.fetched)) fetched, \(traffic.count(.notModified)) not modified, \(fromCache), "
            + "\(traffic.count(.absent)) absent (404); \(traffic.requests) requests, \(bytes) bytes transferred"
    }
}
