import Foundation
import HTTPTypes
@testable import HubGeo
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoGeocoding
@testable import HubGeoHTTP
@testable import HubGeoJSON
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoServer
import HubGeoTestSupport
@testable import HubGeoValidation
import HummingbirdTesting
import Testing

/// The server's routes in process, through HummingbirdTesting's router client (no socket, no
/// binary), beside the black-box tests of MapServerTests that run `hubgeo serve`.
@Suite("MapServer routes in process")
struct MapServerRouterTests {
    /// A server over a database holding the built-in data.
    private static func server(in directory: TemporaryDirectory) throws -> MapServer {
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        try store.importData(data)
        // A query time limit far above any wait on a busy machine: these tests are about the
        // answers (MapServerLimitsTests covers the 503 past the limit).
        let settings = ServerSettings(featureCap: 50, requestTimeout: .seconds(600))
        return try MapServer(store: store, settings: settings, assets: try LeafletAssets.load())
    }

    private static func json(_ body: some Sequence<UInt8>) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    @Test("/api/near answers the store's matches as GeoJSON, nearest first")
    func near() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        let expected = try server.store.near(GeoPoint(latitude: 51.4, longitude: 5.4), radiusMeters: 20_000)
        #expect(!expected.isEmpty)
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/near?lat=51.4&lon=5.4&km=20", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json; charset=utf-8")
            let body = try Self.json(response.body.readableBytesView)
            let features = try #require(body["features"] as? [[String: Any]])
            #expect(features.compactMap { $0["id"] as? String } == expected.map(\.organization.identity.stableID))
        }
    }

    @Test("/api/stats counts what the store counts")
    func stats() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        let expected = try server.store.statistics()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/stats", method: .get)
            #expect(response.status == .ok)
            let body = try Self.json(response.body.readableBytesView)
            #expect(body["clubs"] as? Int == expected.clubs && body["museums"] as? Int == expected.museums)
            #expect(expected.clubs > 0)
        }
    }

    @Test("a bad parameter is a 400 naming it; an unknown id a 404; a POST a 405")
    func errors() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        try await server.application().test(.router) { client in
            let badLatitude = try await client.execute(uri: "/api/near?lat=91&lon=5.4&km=20", method: .get)
            #expect(badLatitude.status == .badRequest)
            let body = try Self.json(badLatitude.body.readableBytesView)
            #expect(body["parameter"] as? String == "lat")
            let unknown = try await client.execute(uri: "/api/organizations/0123456789abcdef", method: .get)
            #expect(unknown.status == .notFound)
            let post = try await client.execute(uri: "/api/stats", method: .post)
            #expect(post.status == .methodNotAllowed)
        }
    }
}
