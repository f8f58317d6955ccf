import Foundation
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoGeocoding
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The library's query and export API shows the cached answers of one language, endpoint and
/// zoom (``LocalizationSource``), with the Level 1 town where an answer has none, on every read
/// path: the chunked queries, the streaming `forEach`, the byte writers and `localizedPlace(of:)`.
@Suite("Localization source in the library")
struct LocalizationSourceTests {
    static let endpointA = "http://127.0.0.1:8081"
    static let endpointB = "http://127.0.0.1:8082"

    /// Four clubs; the cache holds, for each, answers that differ by endpoint and zoom.
    static func store(in directory: TemporaryDirectory) throws -> OrganizationStore {
        let store = try NominatimStandIn.store(in: directory, [
            ("town", GeoPoint(latitude: 51.1, longitude: 5.1)),
            ("country", GeoPoint(latitude: 51.2, longitude: 5.2)),
            ("nothing", GeoPoint(latitude: 51.3, longitude: 5.3)),
            ("never", GeoPoint(latitude: 51.4, longitude: 5.4)),
        ])
        let cache = store.geocodeCache
        func save(_ nickName: String, _ point: GeoPoint, endpoint: String, zoom: Int, town: String?, country: String?, day: Int) throws {
            try cache.save(GeocodeCacheEntry(
                coordinate: GeocodeCoordinate(point), language: "nl", endpoint: endpoint, zoom: zoom,
                status: town == nil && country == nil ? .noResult : .found, town: town, townKey: town == nil ? nil : "village",
                country: country, countryCode: country == nil ? nil : "nl", source: .request, rawResponse: "{}",
                fetchedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)))
        }
        let town = GeoPoint(latitude: 51.1, longitude: 5.1), country = GeoPoint(latitude: 51.2, longitude: 5.2)
        let nothing = GeoPoint(latitude: 51.3, longitude: 5.3)
        // Zoom 14 at A is the oldest; zoom 18 at A and zoom 14 at B came later.
        try save("town", town, endpoint: endpointA, zoom: 14, town: "Dorp", country: "Nederland", day: 1)
        try save("town", town, endpoint: endpointA, zoom: 18, town: "Straat-18", country: "Nederland", day: 2)
        try save("town", town, endpoint: endpointB, zoom: 14, town: "Dorp-B", country: "Nederland", day: 3)
        try save("country", country, endpoint: endpointA, zoom: 14, town: nil, country: "Nederland", day: 1)
        try save("country", country, endpoint: endpointA, zoom: 18, town: "Straat-18b", country: "Nederland", day: 2)
        try save("nothing", nothing, endpoint: endpointA, zoom: 14, town: nil, country: nil, day: 1)
        try save("nothing", nothing, endpoint: endpointB, zoom: 14, town: "Zee-B", country: "Nederland", day: 3)
        return store
    }

    /// nickName → [town, source, country] ("-" for absent) as each read path gives them.
    static func places(_ store: OrganizationStore, _ source: LocalizationSource) throws -> [[String: [String]]] {
        func fields(_ place: LocalizedPlace?) -> [String] {
            [place?.town ?? "-", place?.townSource?.rawValue ?? "-", place?.country ?? "-"]
        }
        let filter = OrganizationFilter(localization: source)
        let chunked = Dictionary(uniqueKeysWithValues: try store.all(filter: filter).map { ($0.organization.nickName, fields($0.localized)) })
        var streamed: [String: [String]] = [:]
        try store.forEach(.all, filter: filter) { streamed[$0.organization.nickName] = fields($0.localized) }
        var single: [String: [String]] = [:]
        for match in try store.all() {
            single[match.organization.nickName] = fields(try store.localizedPlace(of: match.organization, source: source))
        }
        // The byte writer's properties, read back.
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, language: source.language)
        try writer.begin()
        try store.export(.all, filter: filter, to: writer)
        try writer.finish()
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(sink.text.utf8)) as? [String: Any])
        var written: [String: [String]] = [:]
        for feature in try #require(collection["features"] as? [[String: Any]]) {
            let properties = try #require(feature["properties"] as? [String: Any])
            written[properties["nickName"] as! String] = ["localizedTown", "localizedTownSource", "localizedCountry"]
                .map { properties[$0] as? String ?? "-" }
        }
        return [chunked, streamed, single, written]
    }

    @Test("Only the answers of the source's endpoint and zoom, whatever is newer; the Level 1 town where they have none")
    func oneEndpointOneZoom() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try Self.store(in: directory)
        let a14 = try Self.places(store, LocalizationSource(language: "nl", endpoint: Self.endpointA + "/", zoom: 14))
        let expectedA14: [String: [String]] = [
            "town": ["Dorp", "nominatim", "Nederland"],
            "country": ["Level1 country", "level1", "Nederland"],
            "nothing": ["Level1 nothing", "level1", "-"],
            "never": ["-", "-", "-"],
        ]
        #expect(a14.allSatisfy { $0 == expectedA14 }, "\(a14)")
        let a18 = try Self.places(store, LocalizationSource(language: "nl", endpoint: Self.endpointA, zoom: 18))
        let expectedA18: [String: [String]] = [
            "town": ["Straat-18", "nominatim", "Nederland"],
            "country": ["Straat-18b", "nominatim", "Nederland"],
            "nothing": ["-", "-", "-"],
            "never": ["-", "-", "-"],
        ]
        #expect(a18.allSatisfy { $0 == expectedA18 }, "\(a18)")
        let b14 = try Self.places(store, LocalizationSource(language: "nl", endpoint: Self.endpointB, zoom: 14))
        let expectedB14: [String: [String]] = [
            "town": ["Dorp-B", "nominatim", "Nederland"],
            "country": ["-", "-", "-"],
            "nothing": ["Zee-B", "nominatim", "Nederland"],
            "never": ["-", "-", "-"],
        ]
        #expect(b14.allSatisfy { $0 == expectedB14 }, "\(b14)")
        let otherLanguage = try Self.places(store, LocalizationSource(language: "de", endpoint: Self.endpointA, zoom: 14))
        #expect(otherLanguage.allSatisfy { $0.values.allSatisfy { $0 == ["-", "-", "-"] } })
    }

    @Test("A source from a configuration uses its endpoint key and zoom")
    func fromConfiguration() throws {
        let configuration = NominatimConfiguration(endpoint: URL(string: "http://127.0.0.1:8081//")!, zoom: 18)
        #expect(LocalizationSource(language: "NL", configuration: configuration)
                == LocalizationSource(language: "nl", endpoint: "http://127.0.0.1:8081", zoom: 18))
    }

    @Test("The query's place: the answer's town, else the Level 1 town; the country as answered")
    func shown() {
        #expect(LocalizedPlace.shown(language: "nl", answeredTown: "Berlicum", country: "Nederland", level1Town: "Den Dungen")
                == LocalizedPlace(language: "nl", town: "Berlicum", country: "Nederland", townSource: .nominatim))
        #expect(LocalizedPlace.shown(language: "nl", answeredTown: nil, country: "Oostenrijk", level1Town: "Galtür")
                == LocalizedPlace(language: "nl", town: "Galtür", country: "Oostenrijk", townSource: .level1))
        #expect(LocalizedPlace.shown(language: "nl", answeredTown: "", country: nil, level1Town: "Doggersbank")
                == LocalizedPlace(language: "nl", town: "Doggersbank", country: nil, townSource: .level1))
        #expect(LocalizedPlace(language: "nl", town: nil, country: "Nederland", townSource: .level1).townSource == nil)
    }
}
