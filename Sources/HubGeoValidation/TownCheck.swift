import Foundation
import HubGeoDatabase
import HubGeoGeocoding
import HubGeoJSON
import HubGeoModel

/// `validate --geocode`: does each organization's declared town match the place its coordinates
/// point at? This catches swapped, mistyped and copy-pasted coordinates.
///
/// Each distinct point is reverse geocoded once, without `accept-language`, so that Nominatim
/// answers with the local names that Level 1 files use ("Den Haag", "Bruxelles - Brussel");
/// that answer is cached under the language `localNames`. Answers already cached for the point
/// in other languages (by `hubgeo localize`) count too, so translations match as well.
///
/// The declared town matches when it equals, ignoring case, accents, spaces and punctuation,
/// any locality name of the answer (`city`, `town`, `village`, `municipality`, `hamlet`,
/// `suburb`, `city_district`, `borough`; a name like "Bruxelles - Brussel" also by each part)
/// or, when the returned object is that locality, any of its name tags. A point with no place
/// at all (at sea, far from everything) and a town that matches nothing are warnings; the latter
/// says how far the declared town lies when another checked point of the tree is in it.
public final class TownCheck {
    /// The cache language of answers asked without `accept-language`: the places' local names.
    package static let localNames = CachedReverseGeocoder.localNames

    /// What a run did, for the summary line.
    public struct Summary: Sendable, Codable, Equatable {
        /// Organizations whose town was compared with a geocoded place.
        public var checked = 0
        /// Organizations left unchecked: no answer cached (offline) or the lookup failed.
        public var unchecked = 0
        /// Distinct points looked at.
        public var points = 0
        /// Requests sent to Nominatim (retries included).
        public var requests = 0
        /// Points answered from the cache.
        public var cachedPoints = 0
        /// Why lookups stopped early, if they did.
        public var stoppedBy: String?
        /// Warnings given suggested coordinates (from a forward search).
        public var suggested = 0

        /// Nothing checked yet.
        public init() {}

        /// "town check: 131 organizations at 120 points: 131 checked (12 requests, 108 points cached)".
        public var description: String {
            var text = "town check: \(checked + unchecked) organizations at \(points) points: \(checked) checked "
                + "(\(counted(requests, "request")), \(counted(cachedPoints, "point")) cached)"
            if unchecked > 0 { text += ", \(unchecked) not checked" }
            if suggested > 0 { text += ", \(counted(suggested, "coordinate")) suggested" }
            if let stoppedBy { text += "; lookups stopped: \(stoppedBy)" }
            return text
        }
    }

    /// One organization to check and where its Level 1 entry is.
    struct Subject {
        var organization: Organization
        var file: String
        /// The JSON path of the Level 1 entry (`clubs[3]`).
        var entryPath: String
    }

    /// A declared town farther than this from the nearest checked point inside it is called far.
    public var farKilometers = 25.0
    /// Called after each point with (done, total).
    public var progress: (Int, Int) -> Void = { _, _ in }

    /// What the check found so far.
    public private(set) var summary = Summary()

    private let store: OrganizationStore
    private let geocoder: CachedReverseGeocoder
    /// The forward searches of the suggestions: the same client (interval, budget) and cache.
    private let locator: PlaceLocator
    private let online: Bool

    /// `client` nil: cached answers only.
    public init(store: OrganizationStore, client: NominatimClient?, configuration: NominatimConfiguration) {
        self.store = store
        geocoder = CachedReverseGeocoder(cache: store.geocodeCache, client: client, configuration: configuration)
        locator = PlaceLocator(store: store, client: client, configuration: configuration)
        online = client != nil
    }

    /// The warnings for `subjects` (lines are filled in by the caller from the JSON path).
    func check(_ subjects: [Subject]) -> [Diagnostic] {
        var byPoint: [GeocodeCoordinate: [Subject]] = [:]
        for subject in subjects { byPoint[GeocodeCoordinate(subject.organization.coordinates), default: []].append(subject) }
        let points = byPoint.keys.sorted()
        summary.points += points.count
        var places: [GeocodeCoordinate: Place] = [:]
        for (index, point) in points.enumerated() {
            if let place = place(at: point) {
                places[point] = place
            }
            progress(index + 1, points.count)
        }
        var diagnostics: [Diagnostic] = []
        for point in points {
            for subject in byPoint[point]! {
                guard let place = places[point] else {
                    summary.unchecked += 1
                    continue
                }
                summary.checked += 1
                if let message = verdict(subject, place: place, places: places) {
                    diagnostics.append(Diagnostic(severity: .warning, rule: place.found ? .townMismatch : .townNowhere, file: subject.file,
                                                  jsonPath: JSONPath.member(JSONPath.member(subject.entryPath, "idPlus"), "town"), message: message))
                }
            }
        }
        return diagnostics
    }

    // MARK: - Places

    /// What the answers for a point say: no place, or the names it goes by.
    struct Place {
        var found: Bool
        /// Readable description: "Veldhoven (village), Veldhoven (municipality), Nederland".
        var description: String
        /// Every name, as a ``TownCheck/key(_:)``.
        var keys: Set<String>
    }

    /// The address keys whose values name the locality a point lies in.
    static let localityKeys = ReverseGeocodeResult.townKeys + ["city_district", "borough"]

    private func place(at point: GeocodeCoordinate) -> Place? {
        let lookUp: CachedReverseGeocoder.PointResult
        let before = geocoder.requestCount
        do {
            lookUp = try geocoder.lookUp(point, languages: [Self.localNames], offline: !online || summary.stoppedBy != nil)
        } catch {
            summary.stoppedBy = summary.stoppedBy ?? "the geocode cache cannot be used: \(error.localizedDescription)"
            return nil
        }
        summary.requests += geocoder.requestCount - before
        if let stop = lookUp.stoppedBy { summary.stoppedBy = summary.stoppedBy ?? stop.localizedDescription }
        let entries = lookUp.cached + lookUp.new
        if lookUp.fetched == 0 {
            guard !entries.isEmpty else { return nil }
            summary.cachedPoints += 1
        }
        let results = entries.compactMap(\.parsedResponse)
        let local = entries.first { $0.language == Self.localNames }?.parsedResponse
        return Self.place(from: results, describing: local ?? results.first)
    }

    static func place(from results: [ReverseGeocodeResult], describing main: ReverseGeocodeResult?) -> Place? {
        guard let main else { return nil }
        guard results.contains(where: { $0.status == .found }) else {
            return Place(found: false, description: "no place", keys: [])
        }
        var keys: Set<String> = []
        for result in results where result.status == .found {
            var names = localityKeys.compactMap { result.address[$0] }
            if let type = result.addressType, localityKeys.contains(type) {
                names += [result.name].compactMap { $0 } + (result.nameDetails ?? []).filter { $0.key.contains("name") }.map(\.value)
            }
            for name in names {
                keys.insert(key(name))
                for part in name.components(separatedBy: [";", "/"]).flatMap({ $0.components(separatedBy: " - ") }) {
                    keys.insert(key(part))
                }
            }
        }
        keys.remove("")
        var parts = localityKeys.compactMap { key in main.address[key].map { "\($0) (\(key))" } }
        if parts.isEmpty {
            // No locality: the display name, which already ends with the country, unless it is
            // only the country (far from any place Nominatim answers with the country itself).
            if let display = main.displayName, !display.isEmpty, display != main.country {
                return Place(found: true, description: display, keys: keys)
            }
            parts.append("no town")
        }
        if let country = main.country { parts.append(country) }
        return Place(found: true, description: parts.joined(separator: ", "), keys: keys)
    }

    // MARK: - Suggested coordinates

    /// The rules whose warnings get suggested coordinates.
    static let suggestedRules: Set<DiagnosticRule> = [.coordinatesZero, .townMismatch, .townNowhere]

    /// `diagnostics` with suggested coordinates (``CoordinateSuggestion``, also added to the
    /// message) on each (0, 0), town-mismatch and town-nowhere warning about one of `subjects`:
    /// the first place a search of the organization's full name and town finds (the name alone
    /// when it holds the town), else of its town alone. The searches go through the same client (its interval and request budget) and the
    /// same cache as the reverse lookups, one per distinct query; offline, or once lookups have
    /// stopped, the cache only.
    func suggest(_ diagnostics: [Diagnostic], subjects: [Subject]) -> [Diagnostic] {
        var bySpot: [String: Subject] = [:]
        for subject in subjects { bySpot[subject.file + "\u{1F}" + subject.entryPath] = subject }
        var found: [String: PlaceCandidate?] = [:]
        return diagnostics.map { diagnostic in
            guard Self.suggestedRules.contains(diagnostic.rule), diagnostic.suggestion == nil,
                  let entryPath = Self.entryPath(of: diagnostic), let subject = bySpot[diagnostic.file + "\u{1F}" + entryPath]
            else { return diagnostic }
            let organization = subject.organization
            let (name, town) = (organization.identity.fullName, organization.identity.town)
            // "Fotomuseum Den Haag" names its town already; "Fotokring Beeldhoek" is searched as "Fotokring Beeldhoek, Asten".
            let queries = [name.range(of: town, options: [.caseInsensitive, .diacriticInsensitive]) != nil ? name : "\(name), \(town)", town]
            for query in queries {
                if found[query] == nil { found[query] = .some(firstPlace(query)) }
                guard let candidate = found[query] ?? nil,
                      let meters = try? store.geodesicDistance(from: organization.coordinates, to: candidate.coordinates)
                else { continue }
                var diagnostic = diagnostic
                let suggestion = CoordinateSuggestion(
                    latitude: candidate.coordinates.latitude, longitude: candidate.coordinates.longitude, distanceMeters: meters,
                    query: PlaceSearch(query: query).normalizedQuery, place: "\(candidate.name) (\(candidate.kind))",
                    coordinatesPath: JSONPath.member(entryPath, "coordinates"))
                diagnostic.suggestion = suggestion
                diagnostic.message += "; suggested coordinates: \(suggestion.description)"
                summary.suggested += 1
                return diagnostic
            }
            return diagnostic
        }
    }

    /// The JSON path of the Level 1 entry a suggested rule's warning is about.
    static func entryPath(of diagnostic: Diagnostic) -> String? {
        switch diagnostic.rule {
        case .coordinatesZero: JSONPath.parent(of: diagnostic.jsonPath)
        case .townMismatch, .townNowhere: JSONPath.parent(of: diagnostic.jsonPath).flatMap { JSONPath.parent(of: $0) }
        default: nil
        }
    }

    /// The first place a search for `query` finds (nil: none, or no answer), counting its requests.
    private func firstPlace(_ query: String) -> PlaceCandidate? {
        let before = locator.requestCount
        defer { summary.requests += locator.requestCount - before }
        do {
            return try locator.search(PlaceSearch(query: query, limit: 1), offline: !online || summary.stoppedBy != nil)?.candidates.first
        } catch let error as GeocodeError {
            if error.stopsBatch { summary.stoppedBy = summary.stoppedBy ?? error.localizedDescription }
            return nil
        } catch {
            summary.stoppedBy = summary.stoppedBy ?? "the geocode cache cannot be used: \(error.localizedDescription)"
            return nil
        }
    }

    /// A name reduced for comparison: case, accents, spaces and punctuation ignored.
    static func key(_ name: String) -> String {
        String(String.UnicodeScalarView(name.searchFolded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
    }

    // MARK: - Verdict

    private func verdict(_ subject: Subject, place: Place, places: [GeocodeCoordinate: Place]) -> String? {
        let organization = subject.organization
        let town = organization.identity.town
        let at = String(format: "(%.5f, %.5f)", organization.coordinates.latitude, organization.coordinates.longitude)
        let origin = organization.overrides.contains { $0.field == "coordinates" }
            ? " (coordinates from \(organization.level2Source ?? "its Level 2 file"))" : ""
        guard place.found else {
            return "coordinates \(at)\(origin) point at no place Nominatim knows (at sea or far from any town), "
                + "not at \"\(town)\": swapped or mistyped coordinates?"
        }
        let townKey = Self.key(town)
        if place.keys.contains(townKey) { return nil }
        var message = "town \"\(town)\" does not match the place at \(at)\(origin): \(place.description)"
        let inTown = places.filter { $0.value.keys.contains(townKey) }.map(\.key.point)
        let distances = inTown.compactMap { try? store.geodesicDistance(from: organization.coordinates, to: $0) }
        if let nearest = distances.min() {
            let kilometers = nearest / 1000
            message += kilometers > farKilometers
                ? String(format: "; \"%@\" lies %.0f km away: swapped or mistyped coordinates?", town, kilometers)
                : String(format: " (\"%@\" is %.1f km away)", town, kilometers)
        }
        return message
    }
}
