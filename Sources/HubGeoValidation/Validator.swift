import Foundation
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// Checks Photo Club Hub files without touching any database, and says exactly what is wrong:
/// the problems that make an import fail or skip something are errors; doubtful content that
/// an import accepts (unknown keys, blank URLs, unknown languages or expertises, organizations
/// on the same spot, ...) are warnings.
///
/// A folder is checked as its Level 1 root tree (`root_.level1.json`, else `root.level1.json`)
/// with the Level 2 files the tree reaches or that lie next to its files, plus every other
/// `*.level0.json`, `*.level1.json` and `*.level2.json` in the folder that the tree does not
/// reach (such a Level 1 file is checked as a root of its own, without Level 2 matching).
public struct Validator: Sendable {
    /// Organizations closer than this to one another get a warning.
    public var nearbyMeters: Double = 5

    /// Follow include URLs as written (app versions from 3.1.0 on) instead of reading each
    /// include's NAME.level1.json from the including file's folder (``Level1TreeWalker/followsIncludeURLs``).
    public var followsIncludeURLs = false

    private let reader: DocumentReader
    private let level0: DocumentLocation?

    /// - Parameters:
    ///   - reader: how files and URLs are read (the importer's reader).
    ///   - level0: the Level 0 file with the known languages and expertises; nil: `root.level0.json`
    ///     next to each root, else the one built into hubgeo.
    public init(reader: DocumentReader, level0: DocumentLocation? = nil) {
        self.reader = reader
        self.level0 = level0
    }

    private enum Target {
        /// A Level 1 tree. `standalone`: a Level 1 file of a folder that the folder's root does not
        /// reach, checked as a root of its own (an empty one is a placeholder: a warning at most),
        /// with only the Level 2 files of its own clubs. `pairedLevel2`: Level 2 files whose club
        /// such a file declares, which this tree must not call orphans.
        case tree(root: DocumentLocation, level2: [DocumentLocation], onlyFiles: Set<String>?, matchLevel2: Bool,
                  standalone: Bool = false, pairedLevel2: Set<String> = [])
        case level0(DocumentLocation)
        case level2Alone(DocumentLocation)
    }

    private struct Accumulator {
        var diagnostics: Set<Diagnostic> = []
        var files: Set<String> = []
        var organizations = 0
        var level0Sources: Set<String> = []
        var townCheck: TownCheck?
        /// The bytes of each document read, by file, for the diagnostics' positions.
        var sources: [String: Data] = [:]
    }

    /// Checks each input: a file, a folder, a URL or an embedded file. With `townCheck`, each
    /// Level 1 tree's declared towns are also compared with the geocoded places (see ``TownCheck``).
    public func validate(_ inputs: [DocumentLocation], townCheck: TownCheck? = nil) -> ValidationReport {
        var result = Accumulator()
        result.townCheck = townCheck
        let explicitCatalog = level0.map { loadCatalog($0, into: &result) } ?? nil
        for input in inputs {
            for target in plan(input, into: &result) {
                run(target, explicitCatalog: explicitCatalog, into: &result)
            }
        }
        return ValidationReport(diagnostics: Self.located(result.diagnostics, sources: result.sources).sorted(),
                                files: result.files.sorted(),
                                organizations: result.organizations, level0Sources: result.level0Sources.sorted(),
                                townCheck: townCheck?.summary)
    }

    /// Checks one document held in memory (its kind from `name`, else from its content), on its
    /// own: no includes, no Level 2 matching. Used by the fuzzer; never throws or traps.
    public func validate(data: Data, name: String, catalog: Level0Catalog? = nil) -> [Diagnostic] {
        let json: JSONValue
        do {
            json = try JSONParser.parseDocument(data, file: name)
        } catch {
            return [error.diagnostic]
        }
        let kind = DocumentKind(fileName: name) ?? Self.sniff(json)
        var diagnostics: [Diagnostic] = []
        switch kind {
        case .level0:
            diagnostics += Level0Catalog.read(json, file: name).diagnostics
        case .level1:
            do {
                diagnostics += try Level1Document(json: json, file: name, skipSeverity: .error).diagnostics
            } catch {
                diagnostics.append(error.diagnostic)
            }
        case .level2:
            do {
                diagnostics += try Level2Document(json: json, file: name, skipSeverity: .error).diagnostics
            } catch {
                diagnostics.append(error.diagnostic)
            }
        }
        var walker = SchemaWalker(file: name, catalog: catalog, isLevel0: kind == .level0)
        walker.walk(json, schema: .of(kind))
        return Self.located(Self.merge(loader: diagnostics, walker: walker.diagnostics, sources: [name: data]),
                            sources: [name: data]).sorted()
    }

    // MARK: - Planning

    private func plan(_ input: DocumentLocation, into result: inout Accumulator) -> [Target] {
        if case .file(let url) = input {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                result.diagnostics.insert(LoadError.unreadable(file: url.path, reason: "no such file or directory").diagnostic)
                result.files.insert(url.path)
                return []
            }
            if isDirectory.boolValue { return planFolder(url, into: &result) }
        }
        switch DocumentKind(fileName: input.fileName) ?? sniff(input) {
        case .level0:
            return [.level0(input)]
        case .level1:
            return [.tree(root: input, level2: [], onlyFiles: nil, matchLevel2: true)]
        case .level2:
            if case .file(let url) = input, let root = Self.root(in: url.deletingLastPathComponent()) {
                return [.tree(root: .file(root), level2: [input], onlyFiles: [input.description], matchLevel2: true)]
            }
            return [.level2Alone(input)]
        }
    }

    /// The root tree of a folder first, then the files it does not reach (decided after the tree ran).
    private func planFolder(_ folder: URL, into result: inout Accumulator) -> [Target] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var targets: [Target] = []
        var reached: Set<String> = []
        let rootFile = Self.root(in: folder)
        if let root = rootFile {
            let inspection = TreeInspection(reader: reader, root: .file(root), followsIncludeURLs: followsIncludeURLs)
            reached = Set(inspection.documents.map(\.location.description))
                .union(inspection.data.level1Files).union(inspection.consumedLevel2.map(\.description))
        }
        // Level 1 files the root does not reach, and the Level 2 files of their clubs (a template pair).
        var declaredBy: [OrganizationIdentity: DocumentLocation] = [:]
        for name in names where DocumentKind(fileName: name) == .level1 {
            let location = DocumentLocation.file(folder.appendingPathComponent(name))
            guard !reached.contains(location.description), location.description != rootFile?.path else { continue }
            for organization in TreeInspection(reader: reader, root: location, matchLevel2: false, followsIncludeURLs: followsIncludeURLs).data.organizations where organization.type == .club {
                declaredBy[organization.identity] = declaredBy[organization.identity] ?? location
            }
        }
        var pairs: [DocumentLocation: [DocumentLocation]] = [:]
        for name in names where DocumentKind(fileName: name) == .level2 {
            let location = DocumentLocation.file(folder.appendingPathComponent(name))
            guard let data = try? reader.read(location), let json = try? JSONParser().parse(data),
                  let document = try? Level2Document(json: json, file: location.description),
                  let level1 = declaredBy[document.club.identity] else { continue }
            pairs[level1, default: []].append(location)
        }
        let paired = Set(pairs.values.joined().map(\.description))
        if rootFile?.lastPathComponent == EmbeddedData.rootName, names.contains(LegacyDrift.legacyName) {
            let legacy = folder.appendingPathComponent(LegacyDrift.legacyName)
            result.diagnostics.formUnion(LegacyDrift.diagnostics(
                tree: TreeInspection(reader: reader, root: .file(rootFile!), matchLevel2: false, followsIncludeURLs: followsIncludeURLs),
                legacy: TreeInspection(reader: reader, root: .file(legacy), matchLevel2: false, followsIncludeURLs: followsIncludeURLs),
                legacyFile: legacy.path))
        }
        if let root = rootFile {
            targets.append(.tree(root: .file(root), level2: [], onlyFiles: nil, matchLevel2: true, pairedLevel2: paired))
        } else {
            result.diagnostics.insert(Diagnostic(severity: .warning, rule: .noRoot, file: folder.path, jsonPath: "",
                                                 message: "folder holds no root_.level1.json or root.level1.json; each file is checked on its own"))
        }
        for name in names {
            let location = DocumentLocation.file(folder.appendingPathComponent(name))
            guard let kind = DocumentKind(fileName: name), !reached.contains(location.description) else { continue }
            switch kind {
            case .level0: targets.append(.level0(location))
            case .level1:
                let level2 = pairs[location] ?? []
                targets.append(.tree(root: location, level2: level2, onlyFiles: nil, matchLevel2: !level2.isEmpty, standalone: true))
            case .level2:
                if !paired.contains(location.description) { targets.append(.level2Alone(location)) }
            }
        }
        return targets
    }

    /// The Level 1 root file in a folder, as a walk from the folder would start.
    static func root(in folder: URL) -> URL? {
        guard case .file(let root)? = try? Level1TreeWalker.resolveRoot(.file(folder)), root != folder else { return nil }
        return root
    }

    private func sniff(_ location: DocumentLocation) -> DocumentKind {
        guard let data = try? reader.read(location), let json = try? JSONParser().parse(data) else { return .level1 }
        return Self.sniff(json)
    }

    static func sniff(_ json: JSONValue) -> DocumentKind {
        if json["club"] != nil || json["members"] != nil { return .level2 }
        if json["expertises"] != nil || json["languages"] != nil { return .level0 }
        return .level1
    }

    // MARK: - Running

    private func run(_ target: Target, explicitCatalog: Level0Catalog?, into result: inout Accumulator) {
        switch target {
        case .level0(let location):
            _ = loadCatalog(location, into: &result)
        case .level2Alone(let location):
            result.files.insert(location.description)
            var diagnostics: [Diagnostic] = []
            var documents: [String: Data] = [:]
            var walked: [Diagnostic] = []
            do {
                guard let data = try reader.read(location) else { throw LoadError.unreadable(file: location.description, reason: "no such file") }
                result.sources[location.description] = data
                let json = try JSONParser.parseDocument(data, file: location.description)
                documents[location.description] = data
                diagnostics += try Level2Document(json: json, file: location.description, skipSeverity: .error).diagnostics
                diagnostics.append(Diagnostic(severity: .warning, rule: .level2Alone, file: location.description, jsonPath: "club.idPlus",
                                              message: "no Level 1 root next to this file: whether its club is in Level 1 is not checked"))
                var walker = SchemaWalker(file: location.description, catalog: explicitCatalog ?? catalog(near: location, into: &result))
                walker.walk(json, schema: .level2)
                walked = walker.diagnostics
            } catch {
                diagnostics.append((error as? LoadError)?.diagnostic
                    ?? Diagnostic(severity: .error, rule: .unreadableFile, file: location.description, jsonPath: "",
                                  message: error.localizedDescription))
            }
            result.diagnostics.formUnion(Self.merge(loader: diagnostics, walker: walked, sources: documents))
        case .tree(let root, let level2, let onlyFiles, let matchLevel2, let standalone, let pairedLevel2):
            let inspection = TreeInspection(reader: reader, root: root, level2Files: level2, matchLevel2: matchLevel2,
                                            level2Besides: !standalone, followsIncludeURLs: followsIncludeURLs)
            let catalog = explicitCatalog ?? catalog(near: inspection.root ?? root, into: &result)
            var walked: [Diagnostic] = []
            var documents: [String: Data] = [:]
            for document in inspection.documents {
                let file = document.location.description
                documents[file] = document.data
                result.sources[file] = document.data
                if document.kind == .level1 { walked += IncludeCheck.diagnostics(document.json, at: document.location) }
                var walker = SchemaWalker(file: file, catalog: catalog)
                walker.walk(document.json, schema: .of(document.kind))
                walked += walker.diagnostics
            }
            var diagnostics = inspection.data.diagnostics + coordinateChecks(inspection)
            if let townCheck = result.townCheck, onlyFiles == nil {
                let subjects = inspection.data.organizations.compactMap { organization in
                    inspection.places[organization.identity].map {
                        TownCheck.Subject(organization: organization, file: $0.file.description, entryPath: $0.jsonPath)
                    }
                }
                diagnostics += townCheck.check(subjects)
                diagnostics = townCheck.suggest(diagnostics, subjects: subjects)
            }
            diagnostics = Self.merge(loader: diagnostics, walker: walked, sources: documents)
            // A template pair's Level 2 file is checked with its own Level 1 file, not here.
            diagnostics.removeAll { pairedLevel2.contains($0.file) }
            if standalone, inspection.data.organizations.isEmpty {
                let empty = LoadError.noOrganizations(root: root.description).diagnostic
                diagnostics = diagnostics.map { diagnostic in
                    guard diagnostic == empty else { return diagnostic }
                    return Diagnostic(severity: .warning, rule: .placeholder, file: diagnostic.file, jsonPath: "",
                                      message: "no clubs or museums yet (a placeholder: fine when a tree includes it)")
                }
            }
            var files = Set(inspection.documents.map(\.location.description)).union(diagnostics.map(\.file))
                .subtracting(pairedLevel2)
            if let onlyFiles {
                diagnostics = diagnostics.filter { onlyFiles.contains($0.file) }
                files = onlyFiles
            } else {
                result.organizations += inspection.data.organizations.count
            }
            result.files.formUnion(files.filter { !$0.isEmpty })
            result.diagnostics.formUnion(diagnostics)
        }
    }

    /// Loader diagnostics plus walker diagnostics, without a walker error where the loader already
    /// reported on the same spot, and with lines looked up where the loader gave none (in the
    /// document's bytes, `sources`, by ``DocumentPositions``, as ``located(_:sources:)`` does).
    static func merge(loader: [Diagnostic], walker: [Diagnostic], sources: [String: Data]) -> [Diagnostic] {
        let loaderSpots = Set(loader.map { "\($0.file)\u{1F}\($0.jsonPath)" })
        var all = loader + walker.filter { $0.severity == .warning || !loaderSpots.contains("\($0.file)\u{1F}\($0.jsonPath)") }
        var positions: [String: DocumentPositions?] = [:]
        for index in all.indices where all[index].line == nil && !all[index].jsonPath.isEmpty {
            let file = all[index].file
            guard let data = sources[file] else { continue }
            if positions[file] == nil { positions[file] = DocumentPositions(data) }
            all[index].line = positions[file]??.span(at: all[index].jsonPath)?.line
        }
        return all
    }

    /// Each diagnostic with the line, column and end of its JSON path in its document's bytes
    /// (``DocumentPositions``); a diagnostic about a whole file, or a file that could not be read,
    /// keeps the line and column it has (a syntax error's) or gets line 1, column 1.
    static func located(_ diagnostics: some Collection<Diagnostic>, sources: [String: Data]) -> [Diagnostic] {
        var positions: [String: DocumentPositions?] = [:]
        return diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if !diagnostic.jsonPath.isEmpty, let data = sources[diagnostic.file] {
                if positions[diagnostic.file] == nil { positions[diagnostic.file] = DocumentPositions(data) }
                if let span = positions[diagnostic.file]??.span(at: diagnostic.jsonPath) {
                    diagnostic.line = span.line
                    diagnostic.column = span.column
                    diagnostic.endLine = span.endLine
                    diagnostic.endColumn = span.endColumn
                }
                if var suggestion = diagnostic.suggestion, let span = positions[diagnostic.file]??.span(at: suggestion.coordinatesPath) {
                    (suggestion.line, suggestion.column, suggestion.endLine, suggestion.endColumn) = (span.line, span.column, span.endLine, span.endColumn)
                    diagnostic.suggestion = suggestion
                }
            }
            if diagnostic.line == nil { diagnostic.line = 1 }
            if diagnostic.column == nil { diagnostic.column = 1 }
            return diagnostic
        }
    }

    // MARK: - Level 0

    /// Reads a Level 0 file as a catalog, reporting its problems.
    private func loadCatalog(_ location: DocumentLocation, into result: inout Accumulator) -> Level0Catalog? {
        result.files.insert(location.description)
        do {
            guard let data = try reader.read(location) else { throw LoadError.unreadable(file: location.description, reason: "no such file") }
            let json = try JSONParser.parseDocument(data, file: location.description)
            result.sources[location.description] = data
            let (catalog, diagnostics) = Level0Catalog.read(json, file: location.description)
            var walker = SchemaWalker(file: location.description, catalog: nil, isLevel0: true)
            walker.walk(json, schema: .level0)
            result.diagnostics.formUnion(Self.merge(loader: diagnostics, walker: walker.diagnostics,
                                                    sources: [location.description: data]))
            result.level0Sources.insert(location.description)
            return catalog
        } catch {
            result.diagnostics.insert((error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, rule: .unreadableFile, file: location.description, jsonPath: "",
                              message: error.localizedDescription))
            return nil
        }
    }

    /// The catalog for a tree: `root.level0.json` next to its root, else the built-in one.
    private func catalog(near root: DocumentLocation, into result: inout Accumulator) -> Level0Catalog? {
        let sibling = root.sibling(named: "root.level0.json")
        if case .embedded = root {} else if (try? reader.read(sibling)) ?? nil != nil {
            var scratch = Accumulator()
            let catalog = loadCatalog(sibling, into: &scratch)
            if catalog != nil { result.level0Sources.insert(sibling.description) }
            return catalog
        }
        guard let data = EmbeddedData.file(named: "root.level0.json"), let json = try? JSONParser().parse(data) else { return nil }
        result.level0Sources.insert("embedded:root.level0.json")
        return Level0Catalog.read(json, file: "embedded:root.level0.json").catalog
    }

    // MARK: - Coordinates

    /// (0, 0) coordinates, and each organization within `nearbyMeters` of an earlier one, reported
    /// against the first such (``NearbyCoordinates``: linear whatever the layout).
    private func coordinateChecks(_ inspection: TreeInspection) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let organizations = inspection.data.organizations
        func place(_ organization: Organization) -> (file: String, path: String, line: Int?) {
            let entry = inspection.places[organization.identity]
            return (entry?.file.description ?? organization.level1Source, entry.map { JSONPath.member($0.jsonPath, "coordinates") } ?? "",
                    entry?.line)
        }
        for organization in organizations where organization.coordinates.latitude == 0 && organization.coordinates.longitude == 0 {
            let at = place(organization)
            diagnostics.append(Diagnostic(severity: .warning, rule: .coordinatesZero, file: at.file, jsonPath: at.path, line: at.line,
                                          message: "coordinates (0, 0) lie in the Gulf of Guinea: probably never filled in"))
        }
        for close in NearbyCoordinates.firstCloseEarlier(organizations.map(\.coordinates), within: nearbyMeters) {
            let (first, second, meters) = (organizations[close.earlier], organizations[close.index], close.meters)
            let at = place(second), other = place(first)
            let how = meters == 0 ? "are identical to those of" : String(format: "are %.1f m from those of", meters)
            diagnostics.append(Diagnostic(
                severity: .warning, rule: meters == 0 ? .coordinatesIdentical : .coordinatesNear, file: at.file, jsonPath: at.path, line: at.line,
                message: "coordinates of \(second.type.rawValue) \(second.identity) (\(at.file)\(at.line.map { ":\($0)" } ?? "")) "
                    + "\(how) \(first.type.rawValue) \(first.identity) (\(other.file)\(other.line.map { ":\($0)" } ?? ""))"))
        }
        return diagnostics
    }
}
