import Foundation
import HTTPTypes
import HubGeoClusters
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoImport
@testable import HubGeoModel
@testable import HubGeoReader
@testable import HubGeoServer
@testable import HubGeoTiles
import HubGeoTestSupport
import HummingbirdTesting
import NIOCore
import Testing

/// The server's routes in process, through HummingbirdTesting's router client (no socket, no
/// binary), beside the black-box tests of MapServerTests that run `hubgeo serve`.
@Suite("MapServer routes in process")
struct MapServerRouterTests {
    /// A server over a database holding the built-in data.
    private static func server(in directory: TemporaryDirectory, featureCap: Int = 50, cors: CORSPolicy = .anyOrigin,
                               publicURL: PublicURL? = nil, leaflet: Bool = true) throws -> MapServer {
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        try store.importData(data)
        // A query time limit far above any wait on a busy machine: these tests are about the
        // answers (MapServerLimitsTests covers the 503 past the limit).
        let settings = ServerSettings(featureCap: featureCap, requestTimeout: .seconds(600), cors: cors, publicURL: publicURL)
        return try MapServer(store: store, settings: settings, assets: leaflet ? try LeafletAssets.load() : nil)
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
                let inflated = try Gzip.decompress(Array(compressed.body.readableBytesView))
                #expect(inflated == Array(plain.body.readableBytesView), "\(uri)")
                let refused = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"])
                #expect(refused.headers[.contentEncoding] == nil && refused.body == plain.body)
            }
            // A short answer is not worth a zlib stream.
            let short = try await client.execute(uri: "/api/stats", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(short.status == .ok && short.headers[.contentEncoding] == nil)
        }
    }

    // MARK: - Tiles, hosts and CORS (issues 39 and 41)

    private static let host = HTTPField.Name("Host")!

    @Test("/tiles/: one zoom limit for the route, its message and docs/map.md; a tile has one address (no leading zeros)")
    func tileAddresses() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        let limit = TileAddress.maximumZoom
        try await server.application().test(.router) { client in
            for z in [limit - 1, limit] {
                let tile = try await client.execute(uri: "/tiles/\(z)/0/0.mvt", method: .get)
                #expect(tile.status == .noContent || tile.status == .ok, "z \(z): \(tile.status)")
            }
            for z in [limit + 1, 30, 31] {
                let beyond = try await client.execute(uri: "/tiles/\(z)/0/0.mvt", method: .get)
                #expect(beyond.status == .notFound, "z \(z)")
                let message = try Self.json(beyond.body.readableBytesView)["error"] as? String ?? ""
                #expect(message.contains("z is 0 to \(limit),"), "\(message)")
            }
            for (uri, canonical) in [("/tiles/007/0/0.mvt", "/tiles/7/0/0.mvt"), ("/tiles/1/01/0.mvt", "/tiles/1/1/0.mvt"),
                                     ("/tiles/1/0/00.mvt", "/tiles/1/0/0.mvt"), ("/tiles/00/0/0.mvt", "/tiles/0/0/0.mvt")] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect((try Self.json(response.body.readableBytesView)["error"] as? String ?? "").contains(canonical), "\(uri)")
                #expect(try await client.execute(uri: canonical, method: .get).status != .notFound, "\(canonical)")
            }
            let bad = try await client.execute(uri: "/tiles/1/x/0.mvt", method: .get)
            #expect(bad.status == .badRequest)
            #expect(try Self.json(bad.body.readableBytesView)["parameter"] as? String == "x")
        }
        let docs = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/map.md"), encoding: .utf8)
        #expect(docs.contains("z above \(limit)"), "docs/map.md states the route's limit")
    }

    @Test("a tile goes through the answer pipeline: entity tag, 304, gzip byte for byte as the archives store it, 204 when empty")
    func tilePipeline() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        let tile = try #require(TileAddress(z: 0, x: 0, y: 0))
        let mvt = try server.store.tile(tile)
        #expect(!mvt.isEmpty)
        try await server.application().test(.router) { client in
            let plain = try await client.execute(uri: "/tiles/0/0/0.mvt", method: .get)
            #expect(plain.status == .ok && Array(plain.body.readableBytesView) == mvt)
            #expect(plain.headers[.contentType] == "application/vnd.mapbox-vector-tile")
            let tag = try #require(plain.headers[.eTag])
            let again = try await client.execute(uri: "/tiles/0/0/0.mvt", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let compressed = try await client.execute(uri: "/tiles/0/0/0.mvt", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(Array(compressed.body.readableBytesView) == (try TileEncoding.gzip.apply(mvt)), "the archive's bytes")
            let empty = try await client.execute(uri: "/tiles/20/0/0.mvt", method: .get)
            #expect(empty.status == .noContent && empty.headers[.eTag] != nil)
        }
    }

    @Test("Host: a second one is a 400; what a Host may be; /tiles.json names the request's host, with Vary: Host")
    func hostHeader() async throws {
        // HTTP/1 gives the first Host as the request's authority (the router tests' "localhost") and
        // leaves any other among the fields. MapServerLimitsTests sends raw requests over a socket.
        let directory = try TemporaryDirectory()
        let server = try Self.server(in: directory)
        try await server.application().test(.router) { client in
            for uri in ["/api/stats", "/tiles.json", "/tiles/0/0/0.mvt"] {
                let two = try await client.execute(uri: uri, method: .get, headers: [Self.host: "evil.example"])
                #expect(two.status == .badRequest, "\(uri)")
                #expect((try Self.json(two.body.readableBytesView)["error"] as? String ?? "").contains("more than one host"), "\(uri)")
            }
            let real = try await client.execute(uri: "/tiles.json", method: .get)
            let tiles = try #require(try Self.json(real.body.readableBytesView)["tiles"] as? [String])
            #expect(tiles == ["http://localhost/tiles/{z}/{x}/{y}.mvt"])
            #expect(real.headers[.vary] == "Accept-Encoding, Host", "\(real.headers)")
            let tag = try #require(real.headers[.eTag])
            let same = try await client.execute(uri: "/tiles.json", method: .get, headers: [.ifNoneMatch: tag])
            #expect(same.status == .notModified && same.headers[.vary] == "Accept-Encoding, Host")
        }
        for host in ["evil.example/x", "-", "..", "localhost:99999", "a b", "localhost:", "[::1", "exa_mple.org", "host:0", "",
                     "a..b", "-a.example", "a-.example", String(repeating: "a", count: 64) + ".example", "h\u{0}st"] {
            #expect(!HostHeader.isValid(host), "\(host)")
        }
        for host in ["127.0.0.1:8080", "localhost", "[::1]:8080", "[::ffff:127.0.0.1]", "maps.example.org.", "xn--bcher-kva.example:65535"] {
            #expect(HostHeader.isValid(host), "\(host)")
        }
    }

    @Test("--public-url: /tiles.json names it, and does not vary with the Host")
    func publicURL() async throws {
        let directory = try TemporaryDirectory()
        let url = try PublicURL(SettingValue("https://maps.example/hub/", from: .flag("--public-url")))
        let server = try Self.server(in: directory, publicURL: url)
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/tiles.json?lang=nl", method: .get)
            #expect(response.status == .ok)
            let tiles = try Self.json(response.body.readableBytesView)["tiles"] as? [String]
            #expect(tiles == ["https://maps.example/hub/tiles/{z}/{x}/{y}.mvt?lang=nl"], "\(String(describing: tiles))")
            #expect(response.headers[.vary] == "Accept-Encoding")
        }
    }

    @Test("CORS: every origin by default, on answers, errors, 304s and tiles; preflight answered; a list echoes the origin with Vary; none sends none")
    func cors() async throws {
        let directory = try TemporaryDirectory()
        let page: HTTPFields = [.origin: "http://127.0.0.1:3000"]
        try await Self.server(in: directory).application().test(.router) { client in
            for uri in ["/api/stats", "/tiles.json", "/tiles/0/0/0.mvt", "/tiles/40/0/0.mvt", "/api/near?lat=91&lon=0&km=1", "/"] {
                let response = try await client.execute(uri: uri, method: .get, headers: page)
                #expect(response.headers[.accessControlAllowOrigin] == "*", "\(uri) \(response.status)")
                #expect(response.headers[.accessControlExposeHeaders] == "ETag", "\(uri)")
            }
            let tag = try #require(try await client.execute(uri: "/tiles.json", method: .get).headers[.eTag])
            var conditional = page
            conditional[.ifNoneMatch] = tag
            let notModified = try await client.execute(uri: "/tiles.json", method: .get, headers: conditional)
            #expect(notModified.status == .notModified && notModified.headers[.accessControlAllowOrigin] == "*")
            var preflight = page
            preflight[.accessControlRequestMethod] = "GET"
            preflight[.accessControlRequestHeaders] = "if-none-match"
            let options = try await client.execute(uri: "/tiles.json", method: .options, headers: preflight)
            #expect(options.status == .noContent, "\(options.status)")
            #expect(options.headers[.accessControlAllowOrigin] == "*" && options.headers[.accessControlAllowMethods] == "GET, HEAD")
            #expect(options.headers[.accessControlAllowHeaders] == "if-none-match" && options.headers[.accessControlMaxAge] == "86400")
            #expect(options.headers[.allow] == "GET, HEAD, OPTIONS")
            let post = try await client.execute(uri: "/api/stats", method: .post)
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "GET, HEAD, OPTIONS")
        }
        let listed = try CORSPolicy([SettingValue("https://club.example, http://127.0.0.1:3000", from: .flag("--cors"))])
        #expect(listed == .origins(["https://club.example", "http://127.0.0.1:3000"]))
        try await Self.server(in: try TemporaryDirectory(), cors: listed).application().test(.router) { client in
            let allowed = try await client.execute(uri: "/tiles.json", method: .get, headers: page)
            #expect(allowed.headers[.accessControlAllowOrigin] == "http://127.0.0.1:3000")
            #expect(allowed.headers[.vary] == "Accept-Encoding, Host, Origin", "\(allowed.headers)")
            let other = try await client.execute(uri: "/api/stats", method: .get, headers: [.origin: "https://evil.example"])
            #expect(other.headers[.accessControlAllowOrigin] == nil && other.headers[.vary]?.contains("Origin") == true)
            let error = try await client.execute(uri: "/nowhere", method: .get, headers: page)
            #expect(error.headers[.accessControlAllowOrigin] == "http://127.0.0.1:3000" && error.headers[.vary] == "Origin")
        }
        try await Self.server(in: try TemporaryDirectory(), cors: .noOrigin).application().test(.router) { client in
            let response = try await client.execute(uri: "/tiles.json", method: .get, headers: page)
            #expect(response.status == .ok && response.headers[.accessControlAllowOrigin] == nil)
            var preflight = page
            preflight[.accessControlRequestMethod] = "GET"
            let options = try await client.execute(uri: "/tiles.json", method: .options, headers: preflight)
            #expect(options.headers[.accessControlAllowOrigin] == nil && options.headers[.accessControlAllowMethods] == nil)
        }
    }

    @Test("the CORS and public URL settings refuse what they cannot use, naming the setting")
    func corsAndPublicURLValues() throws {
        for text in ["example.org", "https://club.example/path", "ftp://club.example", "*, https://club.example", "none none", ","] {
            #expect(throws: SettingError.self, "\(text)") { try CORSPolicy([SettingValue(text, from: .environment("HUBGEO_CORS"))]) }
        }
        #expect(try CORSPolicy([SettingValue("*", from: .flag("--cors"))]) == .anyOrigin)
        #expect(try CORSPolicy([SettingValue("NONE", from: .flag("--cors"))]) == .noOrigin)
        for text in ["maps.example", "ftp://maps.example", "https://", "https://user@maps.example", "https://maps.example/?q=1",
                     "https://maps.example/#top", "https://maps.example:99999/"] {
            do {
                _ = try PublicURL(SettingValue(text, from: .configFile(path: "/c", line: 2, key: "public-url")))
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.message.hasPrefix("/c:2: public-url \"\(text)\""), "\(error.message)")
            }
        }
        #expect(try PublicURL(SettingValue("https://maps.example:8443/hub//", from: .flag("--public-url"))).base == "https://maps.example:8443/hub")
    }

    @Test("without Leaflet the server answers its API and tiles, and / is a 503 naming the packages")
    func withoutLeaflet() async throws {
        let directory = try TemporaryDirectory()
        try await Self.server(in: directory, leaflet: false).application().test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .serviceUnavailable)
            let message = try Self.json(page.body.readableBytesView)["error"] as? String ?? ""
            #expect(message.contains("libjs-leaflet") && message.contains("libjs-leaflet.markercluster"), "\(message)")
            #expect(try await client.execute(uri: "/api/stats", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/tiles.json", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/tiles/0/0/0.mvt", method: .get).status == .ok)
        }
    }
}
