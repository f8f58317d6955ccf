import Foundation
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// What `validate` finds in a tree: the data as an import would see it, every document parsed
/// (for the schema walk), where each organization is declared, and every problem as an error
/// diagnostic. Built from the public output of a ``Level1TreeWalker`` (which it lets go on after
/// every problem) and of the ``Level2Resolver``.
struct TreeInspection {
    /// A parsed document met in the tree.
    struct ParsedDocument {
        var location: DocumentLocation
        var kind: DocumentKind
        var json: JSONValue
        var data: Data
    }

    var data: HubData
    var documents: [ParsedDocument] = []
    var places: [OrganizationIdentity: Level1Place] = [:]
    /// The Level 2 files read (merged, ignored or orphans).
    var consumedLevel2: Set<DocumentLocation> = []
    /// The root file (a folder resolved to the root file inside it); nil when there is none.
    var root: DocumentLocation?

    /// Reads the tree at `root`; never throws. `matchLevel2: false` reads the Level 1 files only.
    /// `level2Besides: false` leaves out the Level 2 files that merely lie next to the Level 1
    /// files (no orphan search): for a file checked with its own clubs' Level 2 files only.
    /// What an import skips or warns about, validate calls an error.
    init(reader: DocumentReader, root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = [],
         matchLevel2: Bool = true, level2Besides: Bool = true, followsIncludeURLs: Bool = false) {
        data = HubData(organizations: [], summary: LoadSummary(source: root.description))
        var collector = Collector()
        do {
            let walk = try Level1TreeWalker(reader: reader, followsIncludeURLs: followsIncludeURLs).walk(root: root, visitor: &collector)
            self.root = walk.root
            data.source = walk.root.description
            if !walk.files.isEmpty, let empty = walk.emptinessError(diagnostics: collector.diagnostics) {
                collector.diagnostics.append(empty.diagnostic)
            }
            data.organizations = collector.organizations
            data.level1Files = walk.files.map(\.description)
            data.diagnostics = collector.diagnostics
            for (organization, place) in zip(collector.organizations, collector.places) { places[organization.identity] = place }
            if matchLevel2 {
                var level2 = Level2Resolver(reader: reader)
                var level2Documents: [ParsedDocument] = []
                defer {
                    consumedLevel2 = level2.consumed
                    collector.documents += level2Documents
                }
                try level2.merge(into: &data, level1Locations: level2Besides ? walk.files : [], explicit: explicitLevel2,
                                 declaredIn: places.mapValues(\.file), problem: { _ in },
                                 parsedDocument: { level2Documents.append(ParsedDocument(location: $0, kind: .level2, json: $1, data: $2)) })
            }
        } catch {
            data.diagnostics.append((error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, rule: .unreadableFile, file: root.description, jsonPath: "", message: error.localizedDescription))
        }
        documents = collector.documents
        for index in data.diagnostics.indices { data.diagnostics[index].severity = .error }
        data.diagnostics.sort()
    }

    /// Keeps everything the walker reports, and goes on after every problem.
    private struct Collector: Level1TreeVisitor {
        var organizations: [Organization] = []
        var places: [Level1Place] = []
        var diagnostics: [Diagnostic] = []
        var documents: [ParsedDocument] = []

        mutating func enterDocument(_ location: DocumentLocation, data: Data) throws {
            if let json = try? JSONParser.parseDocument(data, file: location.description) {
                documents.append(ParsedDocument(location: location, kind: .level1, json: json, data: data))
            }
        }

        mutating func organization(_ organization: Organization, at place: Level1Place) throws {
            organizations.append(organization)
            places.append(place)
        }

        mutating func diagnostic(_ diagnostic: Diagnostic) throws {
            diagnostics.append(diagnostic)
        }

        mutating func problem(_ error: Error, diagnostic: Diagnostic, discarding document: DocumentLocation?) throws {
            diagnostics.append(diagnostic)
            guard let document, places.last?.file == document else { return }
            // A document read whole before its includes: its organizations are the last ones.
            while places.last?.file == document {
                places.removeLast()
                organizations.removeLast()
            }
        }
    }
}
