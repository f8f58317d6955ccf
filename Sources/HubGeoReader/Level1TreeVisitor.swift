import Foundation
import HubGeoModel

/// Where an organization is declared: its Level 1 file, the JSON path of its entry and the
/// line of the entry's first member (when known).
public struct Level1Place: Hashable, Sendable, CustomStringConvertible {
    /// The Level 1 file.
    public var file: DocumentLocation
    /// The JSON path of the organization's entry.
    public var jsonPath: String
    /// The line of the entry's first member, when known.
    public var line: Int?

    /// The place at `file`, `jsonPath` and `line`.
    public init(file: DocumentLocation, jsonPath: String, line: Int?) {
        self.file = file
        self.jsonPath = jsonPath
        self.line = line
    }

    /// `file:line: jsonPath` (the line only when known), as diagnostics name a place.
    public var description: String {
        "\(file.description)\(line.map { ":\($0)" } ?? ""): \(jsonPath)"
    }
}

/// What a ``Level1TreeWalker`` reports, in reading order (depth first through the includes).
/// A client keeps what it needs: an import hands each organization on at once, `validate`
/// collects everything.
public protocol Level1TreeVisitor {
    /// A Level 1 document was read: its location and bytes, before any of its organizations.
    mutating func enterDocument(_ location: DocumentLocation, data: Data) throws

    /// The first declaration of an organization, as soon as it is read (with the Level 1 data
    /// only: Level 2 files are the `Level2Resolver`'s).
    mutating func organization(_ organization: Organization, at place: Level1Place) throws

    /// A record skipped or doubtful, or an organization declared again (the first declaration is
    /// kept). Reported when its document has been read whole, with severity `warning`.
    mutating func diagnostic(_ diagnostic: Diagnostic) throws

    /// A problem that leaves the tree incomplete: a document that cannot be read, malformed JSON,
    /// a document of the wrong shape, a missing or refused include, an include cycle. `diagnostic`
    /// says it as an error at its place. `discarding` names the document the problem leaves out (nil
    /// for a problem with an include: cycle, refusal): whatever it reported already (organizations
    /// read before the problem showed) no longer counts, and another file may declare those
    /// organizations. Throw to stop the walk; return to go on with the rest of the tree (the
    /// document's includes are not read). By default the walk stops with `error`.
    mutating func problem(_ error: Error, diagnostic: Diagnostic, discarding document: DocumentLocation?) throws
}

// Public, so that a visitor outside hubgeo needs only `organization(_:at:)` and `diagnostic(_:)`.
extension Level1TreeVisitor {
    /// Does nothing with the document.
    public mutating func enterDocument(_ location: DocumentLocation, data: Data) throws {}

    /// Stops the walk: throws `error`.
    public mutating func problem(_ error: Error, diagnostic: Diagnostic, discarding document: DocumentLocation?) throws {
        throw error
    }
}

