import Foundation

/// Loads a Photo Club Hub data set: the Level 1 include tree from a root file, each club's
/// Level 2 file (`<nickName>.level2.json` next to the Level 1 file that declares the club,
/// or given explicitly), with the Level 2 overrides applied.
///
/// Rules: malformed JSON, a file of the wrong shape, an include cycle or a missing include
/// fail the whole load (the data set would silently be incomplete otherwise). One unusable
/// organization, remark or member is skipped with a warning that names the file and JSON path.
///
/// `inspect` applies the same rules for `hubgeo validate`, but goes on after every problem
/// and reports each one as an error diagnostic instead of throwing.
public struct HubLoader: Sendable {
    private let reader: DocumentReader

    public init(reader: DocumentReader) {
        self.reader = reader
    }

    /// Loads the tree that starts at `root` (a Level 1 file, a folder holding
    /// `root_.level1.json` or `root.level1.json`, or a URL), plus `level2Files` given explicitly.
    public func load(root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = []) throws -> HubData {
        let rootFile = try resolveRoot(root)
        var state = TreeState(validating: false)
        try loadLevel1(rootFile, ifMissing: nil, includedFrom: [], into: &state)
        var data = try mergeLevel2(rootFile: rootFile, state: state, explicit: explicitLevel2, read: state.organizations.count)
        data.diagnostics.sort()
        return data
    }

    /// Loads like ``load(root:level2Files:)`` but hands each organization to `each` as soon as it
    /// is read (with its Level 2 file merged), in the same order, instead of keeping them: memory
    /// stays small for any number of organizations. The returned data has no organizations; its
    /// other members are as `load` gives them. A club that some Level 2 file may name (by its
    /// nickName, or by its identity for the files given explicitly or lying next to the Level 1
    /// files) is held back until the Level 2 files are merged.
    public func load(root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = [],
                     each: (Organization) throws -> Void) throws -> HubData {
        let rootFile = try resolveRoot(root)
        var state = TreeState(validating: false)
        state.streaming = true
        for location in explicitLevel2 { noteLevel2Target(location, state: &state) }
        try withoutActuallyEscaping(each) { each in
            try loadLevel1(rootFile, ifMissing: nil, includedFrom: [], into: &state, each: each)
        }
        var data = try mergeLevel2(rootFile: rootFile, state: state, explicit: explicitLevel2,
                                   read: state.emitted + state.organizations.count)
        for organization in data.organizations { try each(organization) }
        data.organizations = []
        data.diagnostics.sort()
        return data
    }

    /// The end of both loads: fails when the tree held no usable organization (`read` of them),
    /// else merges the Level 2 files into the organizations kept in `state`.
    private func mergeLevel2(rootFile: DocumentLocation, state: TreeState, explicit: [DocumentLocation], read: Int) throws -> HubData {
        guard read > 0 else {
            guard state.diagnostics.isEmpty else {
                throw LoadError.noUsableOrganizations(root: rootFile.description, problems: state.diagnostics.sorted().map(\.description))
            }
            throw LoadError.noOrganizations(root: rootFile.description)
        }
        var data = HubData(organizations: state.organizations, diagnostics: state.diagnostics,
                           level1Files: state.files.map(\.description), level2Files: [], orphanLevel2Files: [],
                           source: rootFile.description)
        var level2 = Level2Resolver(reader: reader, validating: false)
        level2.parsed = state.level2Parsed
        try level2.merge(into: &data, level1Locations: state.files, explicit: explicit, declaredIn: state.declaringFile)
        return data
    }

    /// Remembers the club a Level 2 file names (exactly and as ``Level2Resolver/normalized(_:)``), so that the
    /// streaming load holds that club back for it. Unreadable files are left to the merge.
    private func noteLevel2Target(_ location: DocumentLocation, state: inout TreeState) {
        guard !state.level2Seen.contains(location) else { return }
        state.level2Seen.insert(location)
        guard let data = try? reader.read(location), let json = try? Self.parse(data, file: location.description) else { return }
        state.level2Parsed[location] = json  // kept for the merge: each Level 2 file is read and parsed once
        guard let document = try? Level2Document(json: json, file: location.description) else { return }
        state.level2Targets.insert(Level2Resolver.normalized(document.club.identity))
    }

    /// A parsed document met while inspecting a tree.
    struct ParsedDocument {
        var location: DocumentLocation
        var kind: DocumentKind
        var json: JSONValue
    }

    /// What `inspect` found: the data as an import would see it, every document parsed,
    /// and every problem as a diagnostic (skipped records and fatal problems are errors).
    struct Inspection {
        var data: HubData
        var documents: [ParsedDocument]
        var entryLocations: [OrganizationIdentity: (file: String, location: Level1Document.EntryLocation)]
        var consumedLevel2: Set<DocumentLocation>
    }

    /// Reads a tree like `load`, but never throws: each problem becomes an error diagnostic
    /// and reading goes on. `matchLevel2: false` reads the Level 1 files only.
    /// `level2Besides: false` leaves out the Level 2 files that merely lie next to the Level 1
    /// files (no orphan search): for a file checked with its own clubs' Level 2 files only.
    func inspect(root: DocumentLocation, level2Files explicitLevel2: [DocumentLocation] = [], matchLevel2: Bool = true,
                 level2Besides: Bool = true) -> Inspection {
        var state = TreeState(validating: true)
        var data = HubData(organizations: [], diagnostics: [], level1Files: [], level2Files: [], orphanLevel2Files: [],
                           source: root.description)
        var level2 = Level2Resolver(reader: reader, validating: true)
        do {
            let rootFile = try resolveRoot(root)
            data.source = rootFile.description
            try loadLevel1(rootFile, ifMissing: nil, includedFrom: [], into: &state)
            if state.organizations.isEmpty && !state.files.isEmpty {
                let problems = state.diagnostics.map(\.description)
                state.diagnostics.append((problems.isEmpty ? LoadError.noOrganizations(root: rootFile.description)
                    : .noUsableOrganizations(root: rootFile.description, problems: problems)).diagnostic)
            }
            data.organizations = state.organizations
            data.level1Files = state.files.map(\.description)
            data.diagnostics = state.diagnostics
            if matchLevel2 {
                try level2.merge(into: &data, level1Locations: level2Besides ? state.files : [], explicit: explicitLevel2,
                                 declaredIn: state.declaringFile)
            }
        } catch {
            data.diagnostics.append((error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, file: root.description, jsonPath: "", message: error.localizedDescription))
        }
        data.diagnostics.sort()
        return Inspection(data: data, documents: state.documents + level2.documents, entryLocations: state.entryLocations,
                          consumedLevel2: level2.consumed)
    }

    /// A folder stands for the Level 1 root inside it.
    func resolveRoot(_ root: DocumentLocation) throws -> DocumentLocation {
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

    private struct TreeState {
        var validating: Bool
        var files: [DocumentLocation] = []
        var organizations: [Organization] = []
        var index: [OrganizationIdentity: Int] = [:]
        var declaringFile: [OrganizationIdentity: DocumentLocation] = [:]
        var diagnostics: [Diagnostic] = []
        var documents: [ParsedDocument] = []
        var entryLocations: [OrganizationIdentity: (file: String, location: Level1Document.EntryLocation)] = [:]
        /// Streaming load: organizations go to `each` except those held back for a Level 2 file.
        var streaming = false
        var emitted = 0
        /// Streaming load: where each identity (by ``OrganizationIdentity/stableHash``) was first declared.
        var firstPlaces: [UInt64: FirstPlace] = [:]
        var level2Seen: Set<DocumentLocation> = []
        var level2Targets: Set<String> = []
        /// Level 2 files parsed while noting their targets, for the merge.
        var level2Parsed: [DocumentLocation: JSONValue] = [:]

        var skipSeverity: Diagnostic.Severity { validating ? .error : .warning }

        /// Throws `error` for an import; records it and lets reading go on when validating.
        mutating func fail(_ error: Error) throws {
            guard validating else { throw error }
            diagnostics.append((error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, file: "", jsonPath: "", message: error.localizedDescription))
        }
    }

    /// Where an organization was first declared, compactly (a streaming load keeps one per organization).
    struct FirstPlace {
        var file: Int32
        var line: Int32
        var jsonPath: String
    }

    /// Reads one Level 1 file and, depth first, the files it includes. `ifMissing` is the
    /// error to throw when the file does not exist. `each`: the streaming load's consumer.
    private func loadLevel1(_ location: DocumentLocation, ifMissing: LoadError?, includedFrom chain: [DocumentLocation],
                            into state: inout TreeState, each: ((Organization) throws -> Void)? = nil) throws {
        var includes: [Level1Document.Include]
        do {
            guard let data = try reader.read(location) else {
                throw ifMissing ?? LoadError.unreadable(file: location.description, reason: "no such file")
            }
            if state.streaming, let each {
                let besides = reader.level2Files(besides: location)
                for level2 in besides { noteLevel2Target(level2, state: &state) }
                // The names a club's `<nickName>.level2.json` may have here; nil: unknown (remote), any may exist.
                let level2Names: Set<String>? = if case .remote = location { nil } else { Set(besides.map(\.fileName)) }
                let fileIndex = Int32(state.files.count)
                state.files.append(location)
                if let streamed = try Level1Stream.read(data, file: location.description, skipSeverity: state.skipSeverity, entry: {
                    try accept($0, at: $1, in: location, fileIndex: fileIndex, level2Names: level2Names, state: &state, each: each)
                }) {
                    state.diagnostics += streamed.diagnostics
                    includes = streamed.includes
                } else {
                    let document = try Level1Document(json: try Self.parse(data, file: location.description),
                                                      file: location.description, skipSeverity: state.skipSeverity)
                    state.diagnostics += document.diagnostics
                    for (organization, entry) in zip(document.organizations, document.entryLocations) {
                        try accept(organization, at: entry, in: location, fileIndex: fileIndex, level2Names: level2Names,
                                   state: &state, each: each)
                    }
                    includes = document.includes
                }
            } else {
                let json = try Self.parse(data, file: location.description)
                if state.validating { state.documents.append(ParsedDocument(location: location, kind: .level1, json: json)) }
                let document = try Level1Document(json: json, file: location.description, skipSeverity: state.skipSeverity)
                state.files.append(location)
                state.diagnostics += document.diagnostics
                try acceptAll(document, in: location, state: &state)
                includes = document.includes
            }
        } catch {
            try state.fail(error)
            return
        }

        let path = chain + [location]
        for include in includes {
            // A remote tree may point to http(s) documents only: never a local file, never above the server's root.
            if case .remote(let base) = location, let refusal = RemoteReference.refusal(include.reference, from: base) {
                guard state.validating else {
                    throw LoadError.invalidDocument(file: location.description, jsonPath: include.jsonPath, reason: refusal)
                }
                state.diagnostics.append(Diagnostic(severity: .error, file: location.description, jsonPath: include.jsonPath,
                                                    line: include.line, message: refusal))
                continue
            }
            let target = location.resolvingInclude(include.reference)
            if let start = path.firstIndex(of: target) {
                let cycle = LoadError.includeCycle(chain: (path[start...] + [target]).map(\.description))
                guard state.validating else { throw cycle }
                state.diagnostics.append(Diagnostic(severity: .error, file: location.description, jsonPath: include.jsonPath,
                                                    line: include.line, message: cycle.localizedDescription))
                continue
            }
            if state.files.contains(target) { continue }  // reached before through another include
            let missing = LoadError.missingInclude(include: target.description, includedFrom: location.description,
                                                   jsonPath: include.jsonPath)
            try loadLevel1(target, ifMissing: missing, includedFrom: path, into: &state, each: each)
        }
    }

    /// The streaming load's handling of one organization: a duplicate is reported and dropped, a
    /// club that a Level 2 file may name is held back, any other goes to `each` at once.
    private func accept(_ organization: Organization, at entry: Level1Document.EntryLocation, in location: DocumentLocation,
                        fileIndex: Int32, level2Names: Set<String>?, state: inout TreeState,
                        each: (Organization) throws -> Void) throws {
        let hash = organization.identity.stableHash
        if let first = state.firstPlaces[hash] {
            let firstPlace = "\(state.files[Int(first.file)].description)\(first.line > 0 ? ":\(first.line)" : ""): \(first.jsonPath)"
            state.diagnostics.append(Diagnostic(
                severity: state.skipSeverity, file: location.description, jsonPath: entry.jsonPath, line: entry.line,
                message: "\(organization.type.rawValue) \(organization.identity) is declared again; the first declaration (\(firstPlace)) is kept"))
            return
        }
        state.firstPlaces[hash] = FirstPlace(file: fileIndex, line: Int32(clamping: entry.line ?? 0), jsonPath: entry.jsonPath)
        if organization.type == .club,
           level2Names.map({ !$0.isEmpty && $0.contains(organization.nickName + ".level2.json") }) ?? true
            || !state.level2Targets.isEmpty && state.level2Targets.contains(Level2Resolver.normalized(organization.identity)) {
            state.index[organization.identity] = state.organizations.count
            state.declaringFile[organization.identity] = location
            state.organizations.append(organization)
            return
        }
        state.emitted += 1
        try each(organization)
    }

    /// Keeps a document's organizations, reporting duplicates (the in-memory load).
    private func acceptAll(_ document: Level1Document, in location: DocumentLocation, state: inout TreeState) throws {
        for (organization, entry) in zip(document.organizations, document.entryLocations) {
            if let first = state.index[organization.identity] {
                let firstPlace = state.entryLocations[organization.identity].map { "\($0.file)\($0.location.line.map { ":\($0)" } ?? ""): \($0.location.jsonPath)" }
                state.diagnostics.append(Diagnostic(
                    severity: state.skipSeverity, file: location.description, jsonPath: entry.jsonPath, line: entry.line,
                    message: "\(organization.type.rawValue) \(organization.identity) is declared again; the first declaration (\(firstPlace ?? state.organizations[first].level1Source)) is kept"))
                continue
            }
            state.index[organization.identity] = state.organizations.count
            state.declaringFile[organization.identity] = location
            state.entryLocations[organization.identity] = (location.description, entry)
            state.organizations.append(organization)
        }
    }

    static func parse(_ data: Data, file: String) throws(LoadError) -> JSONValue {
        do {
            return try JSONParser().parse(data)
        } catch {
            throw .malformedJSON(file: file, line: error.line, column: error.column, reason: error.reason)
        }
    }
}
