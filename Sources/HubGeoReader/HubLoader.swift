import Foundation
import HubGeoModel

/// Loads a Photo Club Hub data set: the Level 1 include tree from a root file (read by a
/// ``Level1TreeWalker``), each club's Level 2 file (`<nickName>.level2.json` next to the Level 1
/// file that declares the club, or given explicitly), with the Level 2 overrides applied (by the
/// `Level2Resolver`).
///
/// Rules: malformed JSON, a file of the wrong shape, an include cycle or a missing include
/// fail the whole load (the data set would silently be incomplete otherwise). One unusable
/// organization, remark or member is skipped with a warning that names the file and JSON path.
public struct HubLoader: Sendable {
    private let reader: DocumentReader
    /// Follow include URLs as written (``Level1TreeWalker/followsIncludeURLs``).
    public var followsIncludeURLs = false

    /// A loader that reads documents with `reader`, following include URLs as written when `followsIncludeURLs`.
    public init(reader: DocumentReader, followsIncludeURLs: Bool = false) {
        self.reader = reader
        self.followsIncludeURLs = followsIncludeURLs
    }

    /// Loads the tree that starts at `root` (a Level 1 file, a folder holding
    /// `root_.level1.json` or `root.level1.json`, or a URL), plus `level2Files` given explicitly.
    public func load(root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = []) throws -> HubData {
        var collector = Collector()
        let walk = try Level1TreeWalker(reader: reader, followsIncludeURLs: followsIncludeURLs).walk(root: root, visitor: &collector)
        if let empty = walk.emptinessError(diagnostics: collector.diagnostics.sorted()) { throw empty }
        var level2 = Level2Resolver(reader: reader)
        return try level2.resolve(collector.organizations, walk: walk, diagnostics: collector.diagnostics,
                                  declaredIn: collector.declaringFile, explicit: explicitLevel2)
    }

    /// Loads like ``load(root:level2Files:)`` but hands each organization to `each` as soon as it
    /// is read (with its Level 2 file merged), in the same order, instead of keeping them: memory
    /// stays small for any number of organizations. Returns the rest of what `load` gives: the
    /// files, diagnostics and orphans. A club that some Level 2 file may name (by its
    /// nickName, or by its identity for the files given explicitly or lying next to the Level 1
    /// files) is held back until the Level 2 files are merged.
    public func load(root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = [],
                     each: (Organization) throws -> Void) throws -> LoadSummary {
        try withoutActuallyEscaping(each) { each in
            var streamer = Streamer(reader: reader, level2: Level2Resolver(reader: reader), each: each)
            for location in explicitLevel2 { streamer.level2.readAhead(location) }
            let walk = try Level1TreeWalker(reader: reader, followsIncludeURLs: followsIncludeURLs).walk(root: root, visitor: &streamer)
            if let empty = walk.emptinessError(diagnostics: streamer.diagnostics.sorted()) { throw empty }
            let data = try streamer.level2.resolve(streamer.heldBack, walk: walk, diagnostics: streamer.diagnostics,
                                                   declaredIn: streamer.declaringFile, explicit: explicitLevel2)
            for organization in data.organizations { try each(organization) }
            return data.summary
        }
    }

    /// The in-memory load's visitor: keeps every organization.
    private struct Collector: Level1TreeVisitor {
        var organizations: [Organization] = []
        var declaringFile: [OrganizationIdentity: DocumentLocation] = [:]
        var diagnostics: [Diagnostic] = []

        mutating func organization(_ organization: Organization, at place: Level1Place) throws {
            declaringFile[organization.identity] = place.file
            organizations.append(organization)
        }

        mutating func diagnostic(_ diagnostic: Diagnostic) throws {
            diagnostics.append(diagnostic)
        }
    }

    /// The streaming load's visitor: hands each organization on at once, except a club that a
    /// Level 2 file may name, which it holds back for the merge.
    private struct Streamer: Level1TreeVisitor {
        let reader: DocumentReader
        var level2: Level2Resolver
        let each: (Organization) throws -> Void
        var heldBack: [Organization] = []
        var declaringFile: [OrganizationIdentity: DocumentLocation] = [:]
        var diagnostics: [Diagnostic] = []
        /// The names a club's `<nickName>.level2.json` may have in the current document's folder;
        /// nil: unknown (remote), any may exist.
        var level2Names: Set<String>?
        /// The names of the Level 2 files in each folder listed so far (each is listed once).
        var level2NamesByFolder: [DocumentLocation: Set<String>] = [:]

        mutating func enterDocument(_ location: DocumentLocation, data: Data) throws {
            if case .remote = location {
                level2Names = nil
                return
            }
            if let known = level2NamesByFolder[location.folder] {
                level2Names = known
                return
            }
            let besides = reader.level2Files(besides: location)
            for file in besides { level2.readAhead(file) }
            level2Names = Set(besides.map(\.fileName))
            level2NamesByFolder[location.folder] = level2Names
        }

        mutating func organization(_ organization: Organization, at place: Level1Place) throws {
            if organization.type == .club,
               level2Names.map({ !$0.isEmpty && $0.contains(organization.nickName + ".level2.json") }) ?? true
                || level2.isNamed(organization.identity) {
                declaringFile[organization.identity] = place.file
                heldBack.append(organization)
                return
            }
            try each(organization)
        }

        mutating func diagnostic(_ diagnostic: Diagnostic) throws {
            diagnostics.append(diagnostic)
        }
    }
}
