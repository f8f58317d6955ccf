import CompressNIO
import Foundation
import HTTPTypes
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoImport
@testable import HubGeoModel
@testable import HubGeoReader
@testable import HubGeoServer
import HubGeoTestSupport
import HummingbirdTesting
import NIOCore
import Testing

/// The server's routes in process, through HummingbirdTesting's router client (no socket, no
/// binary), beside the black-box tests of MapServerTests that run `hubgeo serve`.
@Suite("MapServer routes in process")
struct MapServerRouterTests {
    /// A server over a database holding the built-in data.
    private static func server(in directory: TemporaryDirectory, featureCap: Int = 50) throws -> MapServer {
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        try store.importData(data)
        // A query time limit far above any wait on a busy machine: these tests are about the
        // answers (MapServerLimitsTests covers the 503 past the limit).
        let settings = ServerSettings(featureCap: featureCap, requestTimeout: .seconds(600))
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
    @Test("/api/clusters: the counts of a whole-world view add up to every organization at every zoom; a cluster splits at its expansion zoom")
    func clusters() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory, featureCap: 5000)
        let total = try server.store.count(.all)
        let index = try server.store.clusterIndex()
        #expect(total == 131)
        try await server.application().test(.router) { client in
            var clustersSeen = 0
            for zoom in 0...(index.separationZoom + 1) {
                let response = try await client.execute(uri: "/api/clusters?bbox=-180,-90,180,90&zoom=\(zoom)", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json; charset=utf-8")
                let body = try Self.json(response.body.readableBytesView)
                let features = try #require(body["features"] as? [[String: Any]])
                let counts = features.map { ($0["properties"] as? [String: Any])?["count"] as? Int ?? 0 }
                #expect(counts.reduce(0, +) == total, "zoom \(zoom)")
                #expect(body["organizations"] as? Int == total && body["zoom"] as? Int == zoom)
                for feature in features {
                    let properties = try #require(feature["properties"] as? [String: Any])
                    switch properties["kind"] as? String {
                    case "cluster":
                        clustersSeen += 1
                        let box = try #require(feature["bbox"] as? [Double])
                        let expansion = try #require(properties["expansionZoom"] as? Int)
                        #expect(box.count == 4 && expansion > zoom)
                        // At its expansion zoom, its box holds two or more items and no longer the cluster.
                        let below = try await client.execute(
                            uri: "/api/clusters?bbox=\(box[0] - 1e-4),\(box[1] - 1e-4),\(box[2] + 1e-4),\(box[3] + 1e-4)&zoom=\(expansion)",
                            method: .get)
                        let parts = try #require(try Self.json(below.body.readableBytesView)["features"] as? [[String: Any]])
                        #expect(parts.count >= 2 && !parts.contains { $0["id"] as? String == feature["id"] as? String })
                    case "organization":
                        #expect(properties["count"] as? Int == 1 && properties["name"] is String && properties["type"] is String)
                        #expect((feature["id"] as? String)?.count == 16)
                    case "colocated":
                        let members = try #require(properties["organizations"] as? [[String: Any]])
                        #expect(members.count == properties["count"] as? Int && members.count >= 2)
                    default:
                        Issue.record("unknown kind: \(properties)")
                    }
                }
            }
            #expect(clustersSeen > 10)
            // Past the server's cap (--max-features) the view stops there, marked.
            let capped = try await Self.server(in: try TemporaryDirectory()).application().test(.router) { client in
                try await client.execute(uri: "/api/clusters?bbox=-180,-90,180,90&zoom=20", method: .get)
            }
            let cappedBody = try Self.json(capped.body.readableBytesView)
            #expect((cappedBody["features"] as? [Any])?.count == 50 && cappedBody["truncated"] as? Bool == true)
            for (uri, parameter) in [
                ("/api/clusters?zoom=3", "bbox"), ("/api/clusters?bbox=1,2,3&zoom=3", "bbox"), ("/api/clusters?bbox=0,50,10,40&zoom=3", "bbox"),
                ("/api/clusters?bbox=0,-91,10,40&zoom=3", "bbox"), ("/api/clusters?bbox=a,0,10,40&zoom=3", "bbox"),
                ("/api/clusters?bbox=0,0,10,40", "zoom"), ("/api/clusters?bbox=0,0,10,40&zoom=31", "zoom"),
                ("/api/clusters?bbox=0,0,10,40&zoom=2.5", "zoom"), ("/api/clusters?bbox=0,0,10,40&zoom=3&lang=en", "lang"),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try Self.json(response.body.readableBytesView)["parameter"] as? String == parameter, "\(uri)")
            }
        }
    }

    @Test("answers carry an ETag tied to the import: If-None-Match gets a 304 until an import changes it")
    func entityTags() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        try await server.application().test(.router) { client in
            var tags: [String: String] = [:]
            for uri in ["/api/clusters?bbox=-180,-90,180,90&zoom=2", "/api/near?lat=51.4&lon=5.4&km=20", "/api/stats",
                        "/api/search?q=foto", "/api/near?lat=51.4&lon=5.4&km=20&lang=nl"] {
                let first = try await client.execute(uri: uri, method: .get)
                #expect(first.status == .ok)
                let tag = try #require(first.headers[.eTag], "\(uri)")
                #expect(tag.hasPrefix("W/\"") && first.headers[.cacheControl] == "no-cache", "\(uri)")
                tags[uri] = tag
                let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
                #expect(again.status == .notModified, "\(uri)")
                #expect(again.body.readableBytes == 0 && again.headers[.eTag] == tag)
                let other = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "W/\"elsewhere\", \"x\""])
                #expect(other.status == .ok && other.body.readableBytes > 0)
                let listed = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"x\", \(tag)"])
                #expect(listed.status == .notModified)
            }
            // Another import: every tag changes, so the same If-None-Match now gets the new answer.
            var data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
            data.organizations.removeLast()
            try server.store.importData(data)
            for (uri, tag) in tags {
                let after = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
                #expect(after.status == .ok, "\(uri)")
                #expect(after.headers[.eTag] != tag && after.headers[.eTag] != nil)
            }
            let world = try await client.execute(uri: "/api/clusters?bbox=-180,-90,180,90&zoom=0", method: .get)
            #expect(try Self.json(world.body.readableBytesView)["organizations"] as? Int == 130, "the index of the new import")
            // Errors carry none and are not kept.
            let bad = try await client.execute(uri: "/api/near?lat=91&lon=5&km=1", method: .get)
            #expect(bad.headers[.eTag] == nil && bad.headers[.cacheControl] == "no-store")
        }
    }

    @Test("answers are gzip-compressed for a client that accepts it, and only then")
    func gzip() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        try await server.application().test(.router) { client in
            for uri in ["/api/clusters?bbox=-180,-90,180,90&zoom=3", "/api/search?q=foto", "/"] {
                let plain = try await client.execute(uri: uri, method: .get)
                #expect(plain.headers[.contentEncoding] == nil && plain.body.readableBytes > 1024)
                let compressed = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8, deflate"])
                #expect(compressed.status == .ok && compressed.headers[.contentEncoding] == "gzip", "\(uri)")
                #expect(compressed.body.readableBytes < plain.body.readableBytes / 2, "\(uri)")
                var body = compressed.body
                let inflated = try body.decompress(with: .gzip())
                #expect(inflated == plain.body, "\(uri)")
                let refused = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"])
                #expect(refused.headers[.contentEncoding] == nil && refused.body == plain.body)
            }
            // A short answer is not worth a zlib stream.
            let short = try await client.execute(uri: "/api/stats", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(short.status == .ok && short.headers[.contentEncoding] == nil)
        }
    }
}
