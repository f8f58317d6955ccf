import Foundation

/// Reads a Level 1 include tree (a local file or folder, the data built into hubgeo, or http(s)
/// documents through the reader) and reports what it finds to a ``Level1TreeVisitor``: each
/// document, each organization with its place, each diagnostic, each problem. It keeps nothing
/// per organization but a compact note of where it was declared (to report a second
/// declaration), so any number of organizations can stream through it.
///
/// Rules: includes are followed depth first, each document once; an include cycle, a missing
/// include and (in a remote tree) an include that leaves the server's tree are problems; the
/// first declaration of an identity is kept and a later one is reported. Records are decoded
/// straight from the bytes (``Level1Stream``); a document the streaming reader cannot vouch for
/// is parsed whole (``Level1Document``), with the same results.
public struct Level1TreeWalker: Sendable {
    public let reader: DocumentReader

    public init(reader: DocumentReader) {
        self.reader = reader
    }

    /// Walks the tree that starts at `root` (a Level 1 file, a folder holding
    /// `root_.level1.json` or `root.level1.json`, or a URL). Throws when the root cannot be
    /// found, and whatever the visitor throws.
    public func walk<Visitor: Level1TreeVisitor>(root: DocumentLocation, visitor: inout Visitor) throws -> Level1Walk {
        var state = WalkState(root: try Self.resolveRoot(root))
        try read(state.root, ifMissing: nil, includedFrom: [], state: &state, visitor: &visitor)
        return Level1Walk(root: state.root, files: state.files, organizationCount: state.organizationCount)
    }

    /// The Level 1 file a root stands for: a folder stands for the root file inside it.
    public static func resolveRoot(_ root: DocumentLocation) throws -> DocumentLocation {
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
        var files: [DocumentLocation] = []
        var organizationCount = 0
        /// Where each identity (by ``OrganizationIdentity/stableHash``) was first declared.
        var firstPlaces: [UInt64: FirstPlace] = [:]
    }

    /// Where an organization was first declared, compactly (one is kept per organization).
    private struct FirstPlace {
        var file: Int32
        var line: Int32
        var jsonPath: String
    }

    /// Reads one Level 1 file and, depth first, the files it includes. `ifMissing` is the
    /// error to report when the file does not exist.
    private func read<Visitor: Level1TreeVisitor>(_ location: DocumentLocation, ifMissing: LoadError?,
                                                  includedFrom chain: [DocumentLocation], state: inout WalkState,
                                                  visitor: inout Visitor) throws {
        let includes: [Level1Document.Include]
        let fileIndex = Int32(state.files.count)
        let countBefore = state.organizationCount
        state.files.append(location)
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
            if state.organizationCount > countBefore {
                state.firstPlaces = state.firstPlaces.filter { $0.value.file != fileIndex }
                state.organizationCount = countBefore
            }
            let diagnostic = (error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, file: "", jsonPath: "", message: error.localizedDescription)
            try visitor.problem(error, diagnostic: diagnostic, discarding: location)
            return
        }

        let path = chain + [location]
        for include in includes {
            // A remote tree may point to http(s) documents only: never a local file, never above the server's root.
            if case .remote(let base) = location, let refusal = RemoteReference.refusal(include.reference, from: base) {
                try visitor.problem(LoadError.invalidDocument(file: location.description, jsonPath: include.jsonPath, reason: refusal),
                                    diagnostic: Diagnostic(severity: .error, file: location.description, jsonPath: include.jsonPath,
                                                           line: include.line, message: refusal),
                                    discarding: nil)
                continue
            }
            let target = location.resolvingInclude(include.reference)
            if let start = path.firstIndex(of: target) {
                let cycle = LoadError.includeCycle(chain: (path[start...] + [target]).map(\.description))
                try visitor.problem(cycle, diagnostic: Diagnostic(severity: .error, file: location.description, jsonPath: include.jsonPath,
                                                                  line: include.line, message: cycle.localizedDescription),
                                    discarding: nil)
                continue
            }
            if state.files.contains(target) { continue }  // reached before through another include
            let missing = LoadError.missingInclude(include: target.description, includedFrom: location.description,
                                                   jsonPath: include.jsonPath)
            try read(target, ifMissing: missing, includedFrom: path, state: &state, visitor: &visitor)
        }
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
                severity: .warning, file: location.description, jsonPath: entry.jsonPath, line: entry.line,
                message: "\(organization.type.rawValue) \(organization.identity) is declared again; the first declaration (\(firstPlace)) is kept"))
            return
        }
        state.firstPlaces[hash] = FirstPlace(file: fileIndex, line: Int32(clamping: entry.line ?? 0), jsonPath: entry.jsonPath)
        state.organizationCount += 1
        try visitor.organization(organization, at: Level1Place(file: location, jsonPath: entry.jsonPath, line: entry.line))
    }
}

/// What a walk read: the root it started from, the Level 1 files read whole (in include order)
/// and how many organizations were reported (first declarations of documents read whole).
public struct Level1Walk: Sendable {
    /// The root file (a folder resolved to the root file inside it).
    public var root: DocumentLocation
    public var files: [DocumentLocation]
    public var organizationCount: Int

    /// The problem with a tree that holds no usable organization, nil when it holds some:
    /// none at all, or every one skipped (`diagnostics`, the walk's, say why).
    public func emptinessError(diagnostics: [Diagnostic]) -> LoadError? {
        guard organizationCount == 0 else { return nil }
        guard diagnostics.isEmpty else {
            return .noUsableOrganizations(root: root.description, problems: diagnostics.map(\.description))
        }
        return .noOrganizations(root: root.description)
    }
}
