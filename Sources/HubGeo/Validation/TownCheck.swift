import Foundation

/// `validate --geocode`: does each organization's declared town match the place its coordinates
/// point at? This catches swapped, mistyped and copy-pasted coordinates.
///
/// Each distinct point is reverse geocoded once, without `accept-language`, so that Nominatim
/// answers with the local names that Level 1 files use ("Den Haag", "Bruxelles - Brussel");
/// that answer is cached under the language ``localNames``. Answers already cached for the point
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
    public static let localNames = "local"

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

        public init() {}

        /// "town check: 131 organizations at 120 points: 131 checked (12 requests, 108 points cached)".
        public var description: String {
            var text = "town check: \(checked + unchecked) organizations at \(points) points: \(checked) checked "
                + "(\(requests) request\(requests == 1 ? "" : "s"), \(cachedPoints) point\(cachedPoints == 1 ? "" : "s") cached)"
            if unchecked > 0 { text += ", \(unchecked) not checked" }
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

    public private(set) var summary = Summary()

    private let store: OrganizationStore
    private let client: NominatimClient?
    private let configuration: NominatimConfiguration
    private var unansweredInARow = 0

    /// `client` nil: cached answers only.
    public init(store: OrganizationStore, client: NominatimClient?, configuration: NominatimConfiguration) {
        self.store = store
        self.client = client
        self.configuration = configuration
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
                    diagnostics.append(Diagnostic(severity: .warning, file: subject.file,
                                                  jsonPath: subject.entryPath + ".idPlus.town", message: message))
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
        var entries: [GeocodeCacheEntry]
        do {
            entries = try store.cachedGeocodes(point, endpoint: configuration.endpointKey, zoom: configuration.zoom)
        } catch {
            summary.stoppedBy = summary.stoppedBy ?? "the geocode cache cannot be read: \(error.localizedDescription)"
            return nil
        }
        if entries.contains(where: { $0.language == Self.localNames }) || (client == nil && !entries.isEmpty) {
            summary.cachedPoints += 1
        } else if let fetched = fetchLocalNames(point) {
            entries.append(fetched)
        } else if entries.isEmpty {
            return nil
        } else {
            summary.cachedPoints += 1
        }
        let results = entries.compactMap { try? NominatimResponseParser.parse(Data($0.rawResponse.utf8)) }
        let local = entries.firstIndex { $0.language == Self.localNames }.flatMap { results.indices.contains($0) ? results[$0] : nil }
        return Self.place(from: results, describing: local ?? results.first)
    }

    /// Asks for the point's local names and caches the answer; nil when that failed.
    private func fetchLocalNames(_ point: GeocodeCoordinate) -> GeocodeCacheEntry? {
        guard let client, summary.stoppedBy == nil else { return nil }
        let before = client.requestCount
        defer { summary.requests += client.requestCount - before }
        do {
            let answer = try client.reverse(point.point, language: nil)
            unansweredInARow = 0
            let entry = GeocodeCacheEntry(
                coordinate: point, language: Self.localNames, endpoint: configuration.endpointKey, zoom: configuration.zoom,
                status: answer.result.status, town: answer.result.town, townKey: answer.result.townKey,
                country: answer.result.country, countryCode: answer.result.countryCode, source: .request,
                rawResponse: String(decoding: answer.body, as: UTF8.self), fetchedAt: Date())
            try store.saveGeocode(entry)
            return entry
        } catch let error as GeocodeError {
            if case .network = error { unansweredInARow += 1 }
            if error.stopsBatch || unansweredInARow >= Localizer.unansweredPlacesBeforeStopping {
                summary.stoppedBy = error.localizedDescription
            }
            return nil
        } catch {
            summary.stoppedBy = "the geocode cache cannot be written: \(error.localizedDescription)"
            return nil
        }
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
