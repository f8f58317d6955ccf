import Foundation
import HubGeoJSON
import HubGeoModel

/// Reads a Level 1 include tree (a local file or folder, the data built into hubgeo, or http(s)
/// documents through the reader) and reports what it finds to a ``Level1TreeVisitor``: each
/// document, each organization with its place, each diagnostic, each problem. It keeps nothing
/// per organization but a compact note of where it was declared (to report a second
/// declaration), so any number of organizations can stream through it.
///
/// Rules: includes are followed depth first, each document once. As the app reads them, only an
/// include's last path component counts, `NAME.level1.json`, read from the including file's own
/// folder (or URL prefix): a remote tree never makes hubgeo fetch another host. An include of any
/// other name is skipped with a warning (the app skips it too). An include cycle and a missing
/// include are problems; the first declaration of an identity is kept and a later one is reported. Records are decoded
/// straight from the bytes (`Level1Stream`); a document the streaming reader cannot vouch for
/// is parsed whole (`Level1Document`), with the same results.
public struct Level1TreeWalker: Sendable {
    /// The reader of the tree's documents.
    public let reader: DocumentReader

    /// Follow each include's URL as written (relative ones against the including file), as app
    /// versions from 3.1.0 on do, instead of its name in the including file's folder. In a remote
    /// tree an include that would leave http(s) or climb above the server's root is then refused.
    public var followsIncludeURLs = false

    /// A walker that reads documents with `reader`, following include URLs as written when `followsIncludeURLs`.
    public init(reader: DocumentReader, followsIncludeURLs: Bool = false) {
        self.reader = reader
        self.followsIncludeURLs = followsIncludeURLs
    }

    /// Walks the tree that starts at `root` (a Level 1 file, a folder holding
    /// `root_.level1.json` or `root.level1.json`, or a URL). Throws when the root cannot be
    /// found, and whatever the visitor throws.
    ///
    /// The walk keeps its own stack (one entry per document on the current include chain), so
    /// a tree may be deep: each document costs the same, at any depth. An include that would
    /// make the chain longer than ``maximumDepth`` documents is a problem, as a cycle is.
    public func walk<Visitor: Level1TreeVisitor>(root: DocumentLocation, visitor: inout Visitor) throws -> Level1Walk {
        var state = WalkState(root: try Self.resolveRoot(root))
        var chain: [OpenDocument] = []
        if let document = try read(state.root, ifMissing: nil, state: &state, visitor: &visitor) {
            state.onChain[document.location] = 0
            chain.append(document)
        }
        while let last = chain.indices.last {
            guard let include = chain[last].nextInclude() else {
                state.onChain[chain.removeLast().location] = nil
                continue
            }
            let location = chain[last].location
            switch step(include, from: location, chain: chain, state: state) {
            case .skip:
                continue
            case .unusable(let message):
                try visitor.diagnostic(Diagnostic(severity: .warning, rule: .includeName, file: location.description,
                                                  jsonPath: include.jsonPath, line: include.line, message: message))
            case .refuse(let error, let message):
                try visitor.problem(error, diagnostic: Diagnostic(severity: .error, rule: error.diagnostic.rule, file: location.description,
                                                                  jsonPath: include.jsonPath, line: include.line, message: message),
                                    discarding: nil)
            case .follow(let target):
                let missing = LoadError.missingInclude(include: target.description, includedFrom: location.description,
                                                       jsonPath: include.jsonPath)
                if let document = try read(target, ifMissing: missing, state: &state, visitor: &visitor) {
                    state.onChain[document.location] = chain.count
                    chain.append(document)
                }
            }
        }
        return Level1Walk(root: state.root, files: state.files, organizationCount: state.organizationCount)
    }

    /// The longest include chain followed, in documents (the root is the first): far beyond any
    /// real tree (Photo Club Hub's is 3 deep), and a bound on what one walk may be made to hold.
    public var maximumDepth = 100_000

    /// The Level 1 file a root stands for: a folder stands for the root file inside it.
    package static func resolveRoot(_ root: DocumentLocation) throws -> DocumentLocation {
        guard case .file(let url) = root else { return root }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw LoadError.unreadable(file: url.path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else { return root }
        for name in [EmbeddedData.rootName, "root.level1.json"] {
            let candidate = url.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return .file(candidate) }
        }
        throw LoadError.unreadable(file: url.path, reason: "folder holds no root_.level1.json or root.level1.json")
    }

    private struct WalkState {
        var root: DocumentLocation
        /// The documents read whole, in reading order, and the same as a set.
        var files: [DocumentLocation] = []
        var read: Set<DocumentLocation> = []
        /// The documents on the current include chain, with their position in it (for cycles).
        var onChain: [DocumentLocation: Int] = [:]
        var organizationCount = 0
        /// Where each identity (by ``OrganizationIdentity/stableHash``) was first declared.
        var firstPlaces: [UInt64: FirstPlace] = [:]
        /// The identities the document being read declared first (forgotten if it fails).
        var declaredByCurrent: [UInt64] = []
    }

    /// Where an organization was first declared, compactly (one is kept per organization).
    private struct FirstPlace {
        var file: Int32
        var line: Int32
        var jsonPath: String
    }

    /// A document read whole, on the include chain: the includes it has left to follow.
    private struct OpenDocument {
        var location: DocumentLocation
        var includes: [Level1Document.Include]
        var next = 0

        mutating func nextInclude() -> Level1Document.Include? {
            guard next < includes.count else { return nil }
            defer { next += 1 }
            return includes[next]
        }
    }

    /// What to do with an include of `location` (the last document of `chain`).
    private enum Step {
        case follow(DocumentLocation)
        /// Reached before through another include.
        case skip
        /// Not a `NAME.level1.json` file: skipped, as the app skips it.
        case unusable(message: String)
        /// A problem at the include: refused (remote), a cycle, too deep.
        case refuse(LoadError, message: String)
    }

    private func step(_ include: Level1Document.Include, from location: DocumentLocation, chain: [OpenDocument],
                      state: WalkState) -> Step {
        guard let name = DocumentLocation.level1IncludeName(include.reference) else {
            return .unusable(message: "include \"\(include.reference)\" does not name a NAME.level1.json file; it is skipped, as the app skips it")
        }
        let target: DocumentLocation
        if followsIncludeURLs {
            // A remote tree may point to http(s) documents only: never a local file, never above the server's root.
            if case .remote(let base) = location, let refusal = RemoteReference.refusal(include.reference, from: base) {
                return .refuse(.invalidDocument(file: location.description, jsonPath: include.jsonPath, reason: refusal,
                                                rule: .includeRefused), message: refusal)
            }
            target = location.resolvingInclude(include.reference)
        } else {
            target = location.sibling(named: "\(name).level1.json")
        }
        if let start = state.onChain[target] {
            let cycle = LoadError.includeCycle(chain: (chain[start...].map(\.location) + [target]).map(\.description))
            return .refuse(cycle, message: cycle.localizedDescription)
        }
        if state.read.contains(target) { return .skip }
        if chain.count >= maximumDepth {
            let tooDeep = LoadError.includeTooDeep(root: state.root.description, limit: maximumDepth, include: target.description,
                                                   includedFrom: location.description, jsonPath: include.jsonPath)
            return .refuse(tooDeep, message: tooDeep.diagnostic.message)
        }
        return .follow(target)
    }

    /// Reads one Level 1 file whole and reports it; returns it with its includes, or nil when
    /// it is left out (a problem, reported). `ifMissing` is the error to report when the file
    /// does not exist.
    private func read<Visitor: Level1TreeVisitor>(_ location: DocumentLocation, ifMissing: LoadError?,
                                                  state: inout WalkState, visitor: inout Visitor) throws -> OpenDocument? {
        let includes: [Level1Document.Include]
        let fileIndex = Int32(state.files.count)
        state.files.append(location)
        state.read.insert(location)
        state.declaredByCurrent.removeAll(keepingCapacity: true)
        do {
            guard let data = try reader.read(location) else {
                throw ifMissing ?? LoadError.unreadable(file: location.description, reason: "no such file")
            }
            try visitor.enterDocument(location, data: data)
            let file = location.description
            var diagnostics: [Diagnostic] = []
            if let streamed = try Level1Stream.read(data, file: file, skipSeverity: .warning, entry: {
                try accept($0, at: $1, in: location, fileIndex: fileIndex, diagnostics: &diagnostics, state: &state, visitor: &visitor)
            }) {
                diagnostics += streamed.diagnostics
                includes = streamed.includes
            } else {
                let document = try Level1Document(json: try JSONParser.parseDocument(data, file: file), file: file,
                                                  skipSeverity: .warning)
                diagnostics += document.diagnostics
                for (organization, entry) in zip(document.organizations, document.entryLocations) {
                    try accept(organization, at: entry, in: location, fileIndex: fileIndex, diagnostics: &diagnostics,
                               state: &state, visitor: &visitor)
                }
                includes = document.includes
            }
            diagnostics.sort()  // in the document's order (the streaming reader notes second declarations first)
            for diagnostic in diagnostics { try visitor.diagnostic(diagnostic) }
        } catch {
            // The document is left out, with what it declared (its includes were not read yet: it is the last file).
            state.files.removeLast()
            state.read.remove(location)
            for hash in state.declaredByCurrent { state.firstPlaces[hash] = nil }
            state.organizationCount -= state.declaredByCurrent.count
            let diagnostic = (error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, rule: .unreadableFile, file: location.description, jsonPath: "", message: error.localizedDescription)
            try visitor.problem(error, diagnostic: diagnostic, discarding: location)
            return nil
        }
        return OpenDocument(location: location, includes: includes)
    }

    /// One organization read: a second declaration is noted for the end of its document and
    /// dropped; a first one goes to the visitor at once.
    private func accept<Visitor: Level1TreeVisitor>(_ organization: Organization, at entry: Level1Document.EntryLocation,
                                                    in location: DocumentLocation, fileIndex: Int32,
                                                    diagnostics: inout [Diagnostic], state: inout WalkState,
                                                    visitor: inout Visitor) throws {
        let hash = organization.identity.stableHash
        if let first = state.firstPlaces[hash] {
            let firstPlace = "\(state.files[Int(first.file)].description)\(first.line > 0 ? ":\(first.line)" : ""): \(first.jsonPath)"
            diagnostics.append(Diagnostic(
                severity: .warning, rule: .duplicateIdentity, file: location.description, jsonPath: entry.jsonPath, line: entry.line,
                message: "\(organization.type.rawValue) \(organization.identity) is declared again; the first declaration (\(firstPlace)) is kept"))
            return
        }
        state.firstPlaces[hash] = FirstPlace(file: fileIndex, line: Int32(clamping: entry.line ?? 0), jsonPath: entry.jsonPath)
        state.declaredByCurrent.append(hash)
        state.organizationCount += 1
        try visitor.organization(organization, at: Level1Place(file: location, jsonPath: entry.jsonPath, line: entry.line))
    }
}

/// What a walk read: the root it started from, the Level 1 files read whole (in include order)
/// and how many organizations were reported (first declarations of documents read whole).
public struct Level1Walk: Sendable {
    /// The root file (a folder resolved to the root file inside it).
    public var root: DocumentLocation
    /// The Level 1 files read, in reading order.
    public var files: [DocumentLocation]
    /// The number of organizations reported.
    public var organizationCount: Int

    /// The problem with a tree that holds no usable organization, nil when it holds some:
    /// none at all, or every one skipped (`diagnostics`, the walk's, say why).
    package func emptinessError(diagnostics: [Diagnostic]) -> LoadError? {
        guard organizationCount == 0 else { return nil }
        guard diagnostics.isEmpty else {
            return .noUsableOrganizations(root: root.description, problems: diagnostics.map(\.description))
        }
        return .noOrganizations(root: root.description)
    }
}
