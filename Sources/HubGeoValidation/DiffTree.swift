import HubGeoModel
import HubGeoReader

/// One side of `hubgeo diff`: the organizations of a tree (a folder, a Level 1 file or a URL, with
/// its includes and Level 2 files, as an import reads them), and where each is declared (file,
/// line and column of its entry), for annotations.
package struct DiffTree: Sendable {
    package struct Place: Sendable, Equatable {
        package var file: String
        package var jsonPath: String
        package var line: Int
        package var column: Int
    }

    package var source: String
    package var organizations: [Organization]
    package var places: [OrganizationIdentity: Place]
    /// What made records unusable on the way (they are left out), as `validate` reports them.
    package var problems: [Diagnostic]

    package init(source: String, organizations: [Organization], places: [OrganizationIdentity: Place] = [:],
                problems: [Diagnostic] = []) {
        self.source = source
        self.organizations = organizations
        self.places = places
        self.problems = problems
    }

    /// Why a tree cannot be compared: its root cannot be read, or it holds no organization at all.
    package struct Unreadable: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Reads the tree at `location`.
    package static func read(_ location: DocumentLocation, reader: DocumentReader, followsIncludeURLs: Bool = false) throws -> DiffTree {
        let inspection = TreeInspection(reader: reader, root: location, followsIncludeURLs: followsIncludeURLs)
        guard inspection.root != nil, !inspection.data.organizations.isEmpty else {
            let reasons = inspection.data.diagnostics.prefix(3).map(TextReport.line)
            throw Unreadable(description: "\(location.description): no organizations to compare"
                + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")))
        }
        var positions: [DocumentLocation: DocumentPositions?] = [:]
        var places: [OrganizationIdentity: Place] = [:]
        for (identity, place) in inspection.places {
            if positions[place.file] == nil {
                positions[place.file] = inspection.documents.first { $0.location == place.file }.flatMap { DocumentPositions($0.data) }
            }
            let span = positions[place.file]??.span(at: place.jsonPath)
            places[identity] = Place(file: place.file.description, jsonPath: place.jsonPath,
                                     line: span?.line ?? place.line ?? 1, column: span?.column ?? 1)
        }
        return DiffTree(source: inspection.root?.description ?? location.description, organizations: inspection.data.organizations,
                        places: places, problems: inspection.data.diagnostics)
    }
}
