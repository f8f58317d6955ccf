import ArgumentParser
import Foundation
import HubGeo

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the documents in the document cache: URL, age, validators, size, and whether the last import used them.",
        discussion: """
            `hubgeo import URL` keeps every Level 1 and Level 2 document it fetches in the database, with \
            its ETag and Last-Modified validators. Age: since the server last vouched for the copy (a 200 \
            or a 304). A document the server said does not exist (404) is listed with status 404.
            """)

    @Option(help: "Output format: table or json.")
    var format: StatsFormat = .table

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let path = database.resolvedPath
        // No database yet: nothing was ever fetched (and listing creates none).
        let entries = FileManager.default.fileExists(atPath: path) ? try DocumentCache.entries(store: OrganizationStore(path: path)) : []
        let now = Date()
        switch format {
        case .json:
            Console.printVerbatim(try PrettyJSON.string(entries.map { SourceJSON($0, now: now) }))
        case .table:
            guard !entries.isEmpty else {
                Console.note("The document cache is empty: no document has been imported from a URL.")
                return
            }
            var table = TextTable(headers: ["URL", "Status", "Age", "ETag", "Last-Modified", "Bytes", "Last import"])
            table.rows = entries.map { entry in
                [entry.url, "\(entry.status)", RFC3339.age(entry.age(at: now)), entry.etag ?? "-", entry.lastModified ?? "-",
                 "\(entry.size)", entry.usedByLastImport ? "used" : "-"]
            }
            Console.print(table.render(includeHeader: true))
        }
    }
}

/// One cached document in `hubgeo sources --format json`: times as RFC 3339 UTC strings.
struct SourceJSON: Encodable {
    var url: String
    var status: Int
    var etag: String?
    var lastModified: String?
    var fetchedAt: String
    var checkedAt: String
    var ageSeconds: Int
    var bodyHash: String?
    var size: Int
    var usedByLastImport: Bool

    init(_ entry: CachedDocument, now: Date) {
        url = entry.url
        status = entry.status
        etag = entry.etag
        lastModified = entry.lastModified
        fetchedAt = RFC3339.string(entry.fetchedAt)
        checkedAt = RFC3339.string(entry.checkedAt)
        ageSeconds = max(0, Int(entry.age(at: now)))
        bodyHash = entry.bodyHash
        size = entry.size
        usedByLastImport = entry.usedByLastImport
    }
}
