import Foundation
import HubGeoJSON
import HubGeoModel

/// The Level 2 side of a load: finds each club's Level 2 file (by nickName next to the Level 1
/// file that declares it, given explicitly, or lying next to the Level 1 files), parses each
/// file once, matches it to its club by identity (reporting orphans and near-misses) and applies
/// the override rules (``Organization/merge(level2:source:)``), all in one place.
///
/// A skipped record, an ignored file and an orphan are diagnostics of severity `warning`. A file
/// that cannot be read or parsed goes to the caller's `problem` handler, which throws to stop
/// (an import) or returns to go on (`validate`, which reports it).
package struct Level2Resolver {
    let reader: DocumentReader
    var index: [OrganizationIdentity: Int] = [:]
    /// The Level 2 files read (merged, ignored or orphans).
    package var consumed: Set<DocumentLocation> = []
    /// Level 2 files read ahead of the merge (``readAhead(_:)``), parsed, by location.
    private var parsed: [DocumentLocation: (json: JSONValue, data: Data)] = [:]
    private var readAheadFiles: Set<DocumentLocation> = []
    /// The clubs that the files read ahead name, as ``normalized(_:)``.
    private(set) var namedClubs: Set<String> = []

    package init(reader: DocumentReader) {
        self.reader = reader
    }

    /// Reads and parses a Level 2 file before the merge and notes the club it names, so that a
    /// streaming load can hold that club back until the merge (which uses this parse: each
    /// file is parsed once). Unreadable files are left to the merge, which reports them.
    mutating func readAhead(_ location: DocumentLocation) {
        guard readAheadFiles.insert(location).inserted else { return }
        guard let data = try? reader.read(location), let json = try? JSONParser.parseDocument(data, file: location.description)
        else { return }
        parsed[location] = (json, data)
        guard let document = try? Level2Document(json: json, file: location.description) else { return }
        namedClubs.insert(Self.normalized(document.club.identity))
    }

    /// Whether a file read ahead names `identity` (exactly, or but for case and spaces).
    func isNamed(_ identity: OrganizationIdentity) -> Bool {
        !namedClubs.isEmpty && namedClubs.contains(Self.normalized(identity))
    }

    /// Merges into `data`'s organizations: each club's `<nickName>.level2.json` next to the Level 1
    /// file that declares it (`declaredIn`), then the files given explicitly, then the other Level 2
    /// files lying next to `level1Locations` (orphans unless they name a club).
    /// `problem`: called with each file that cannot be read or parsed (throw to stop);
    /// `parsedDocument`: each Level 2 document parsed, with its bytes.
    package mutating func merge(into data: inout HubData, level1Locations: [DocumentLocation], explicit: [DocumentLocation],
                        declaredIn: [OrganizationIdentity: DocumentLocation],
                        problem: (Error) throws -> Void = { throw $0 },
                        parsedDocument: (DocumentLocation, JSONValue, Data) -> Void = { _, _, _ in }) throws {
        for (position, organization) in data.organizations.enumerated() { index[organization.identity] = position }

        for organization in data.organizations where organization.type == .club {
            guard let level1File = declaredIn[organization.identity] else { continue }
            let candidate = level1File.sibling(named: "\(organization.nickName).level2.json")
            guard !consumed.contains(candidate) else { continue }
            try apply(candidate, expected: organization.identity, to: &data, problem: problem, parsedDocument: parsedDocument)
        }
        for location in explicit where !consumed.contains(location) {
            try apply(location, expected: nil, to: &data, problem: problem, parsedDocument: parsedDocument)
        }
        // Level 2 files lying next to the Level 1 files that no club claimed: orphans (each folder listed once).
        var listed: Set<DocumentLocation> = []
        for level1 in level1Locations where listed.insert(level1.folder).inserted {
            for location in reader.level2Files(besides: level1) where !consumed.contains(location) {
                try apply(location, expected: nil, to: &data, problem: problem, parsedDocument: parsedDocument)
            }
        }
    }

    /// Merges one Level 2 file into the club it names. `expected` is the club whose nickName
    /// led to the file (nil for files given explicitly or found lying around).
    private mutating func apply(_ location: DocumentLocation, expected: OrganizationIdentity?, to data: inout HubData,
                                problem: (Error) throws -> Void, parsedDocument: (DocumentLocation, JSONValue, Data) -> Void) throws {
        let skipSeverity = Diagnostic.Severity.warning
        let json: JSONValue
        let bytes: Data
        do {
            guard let found = try parsed.removeValue(forKey: location) ?? parseIfPresent(location) else {
                if expected == nil { throw LoadError.unreadable(file: location.description, reason: "no such file") }
                return
            }
            (json, bytes) = found
        } catch {
            try problem(error)
            consumed.insert(location)
            data.diagnostics.append((error as? LoadError)?.diagnostic
                ?? Diagnostic(severity: .error, rule: .unreadableFile, file: location.description, jsonPath: "", message: error.localizedDescription))
            return
        }
        consumed.insert(location)
        parsedDocument(location, json, bytes)
        let document: Level2Document
        do {
            document = try Level2Document(json: json, file: location.description, skipSeverity: skipSeverity)
        } catch {
            guard case .invalidDocument(let file, let path, let reason, let rule) = error else { throw error }
            data.diagnostics.append(Diagnostic(severity: skipSeverity, rule: rule, file: file, jsonPath: path,
                                               message: "\(reason); Level 2 file ignored"))
            return
        }
        data.diagnostics += document.diagnostics
        let identity = document.club.identity
        guard let position = index[identity], data.organizations[position].type == .club else {
            data.orphanLevel2Files.append(location.description)
            data.diagnostics.append(Diagnostic(severity: skipSeverity, rule: expected == nil ? .orphanLevel2 : .level2Mismatch,
                                               file: location.description, jsonPath: "club.idPlus",
                                               message: orphanMessage(identity, expected: expected, known: index.keys)))
            return
        }
        guard !data.organizations[position].hasLevel2 else {
            data.diagnostics.append(Diagnostic(
                severity: skipSeverity, rule: .level2Duplicate, file: location.description, jsonPath: "club.idPlus",
                message: "club \(identity) already has Level 2 data from \(data.organizations[position].level2Source ?? "?"); file ignored"))
            return
        }
        data.organizations[position].merge(level2: document, source: location.description)
        data.level2Files.append(location.description)
    }

    private func orphanMessage(_ identity: OrganizationIdentity, expected: OrganizationIdentity?,
                               known: some Sequence<OrganizationIdentity>) -> String {
        if let expected {
            let hint = Self.normalized(expected) == Self.normalized(identity) ? " (they differ only by case or spaces)" : ""
            return "club \(identity) does not match the Level 1 club \(expected) whose nickName names this file\(hint); Level 2 data not applied"
        }
        let key = Self.normalized(identity)
        if let nearMiss = known.first(where: { Self.normalized($0) == key }) {
            return "orphan: club \(identity) is in no Level 1 file; Level 1 has \(nearMiss), which differs only by case or spaces; Level 2 data not applied"
        }
        return "orphan: club \(identity) is in no Level 1 file; Level 2 data not applied"
    }

    static func normalized(_ identity: OrganizationIdentity) -> String {
        (identity.town + "|" + identity.fullName).lowercased().filter { !$0.isWhitespace }
    }

    private func parseIfPresent(_ location: DocumentLocation) throws -> (json: JSONValue, data: Data)? {
        guard let data = try reader.read(location) else { return nil }
        return (try JSONParser.parseDocument(data, file: location.description), data)
    }

}

extension Level2Resolver {
    /// The end of both loads: the data read, with the Level 2 files merged into `organizations`
    /// (those kept from the walk) and the diagnostics sorted.
    mutating func resolve(_ organizations: [Organization], walk: Level1Walk, diagnostics: [Diagnostic],
                          declaredIn: [OrganizationIdentity: DocumentLocation], explicit: [DocumentLocation]) throws -> HubData {
        var data = HubData(organizations: organizations, diagnostics: diagnostics, level1Files: walk.files.map(\.description),
                           level2Files: [], orphanLevel2Files: [], source: walk.root.description)
        try merge(into: &data, level1Locations: walk.files, explicit: explicit, declaredIn: declaredIn)
        data.diagnostics.sort()
        return data
    }
}
