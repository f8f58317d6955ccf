import Foundation
import HubGeoTestSupport

/// The real Nominatim 5.3.3 that `Tests/Integration/nominatim/nominatim.sh start` runs on
/// 127.0.0.1, and the manifest of the extract it imported (written by `make_extract.py`).
///
/// Where: `HUBGEO_IT_NOMINATIM_URL` and `HUBGEO_IT_MANIFEST` (set by `make test-integration`),
/// else the script's defaults (`HUBGEO_IT_PORT`, default 28088; `HUBGEO_IT_STATE`, default
/// /var/cache/hubgeo-nominatim). No server is a test failure, never a skip.
enum RealNominatim {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var endpoint: String {
        if let url = environment["HUBGEO_IT_NOMINATIM_URL"], !url.isEmpty { return url }
        return "http://127.0.0.1:\(environment["HUBGEO_IT_PORT"].flatMap { $0.isEmpty ? nil : $0 } ?? "28088")"
    }

    static var manifestPath: String {
        if let path = environment["HUBGEO_IT_MANIFEST"], !path.isEmpty { return path }
        let state = environment["HUBGEO_IT_STATE"].flatMap { $0.isEmpty ? nil : $0 } ?? "/var/cache/hubgeo-nominatim"
        return state + "/project/places.json"
    }

    static let howToStart = "Start it with `make nominatim-start` (or run the whole tier with `make test-integration`)."

    /// Checks that the endpoint is a loopback address and that Nominatim 5.3.3 answers its
    /// `/status`; throws a message saying what is wrong otherwise.
    static func requireServer() throws {
        guard let host = URL(string: endpoint)?.host, ["127.0.0.1", "localhost", "[::1]", "::1"].contains(host) else {
            throw Unavailable(description: "HUBGEO_IT_NOMINATIM_URL=\(endpoint) is not on loopback: the integration tests "
                + "send requests without a pause and only ever talk to a local server")
        }
        let result = try CommandRunner.tool("curl", ["-sS", "--max-time", "5", endpoint + "/status?format=json"],
                                            package: "curl")
        guard result.status == 0 else {
            throw Unavailable(description: "no Nominatim answers at \(endpoint) (curl: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))). \(howToStart)")
        }
        guard let status = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
              status["message"] as? String == "OK", status["software_version"] as? String == "5.3.3" else {
            throw Unavailable(description: "\(endpoint)/status is not a healthy Nominatim 5.3.3: \(result.text). \(howToStart)")
        }
    }

    /// One GET to the server with curl (not hubgeo's client); the body parsed as a JSON object.
    static func get(_ pathAndQuery: String) throws -> [String: Any] {
        let url = endpoint + pathAndQuery
        let result = try CommandRunner.tool("curl", ["-sS", "--fail-with-body", "--max-time", "10", url], package: "curl")
        guard result.status == 0 else {
            throw Unavailable(description: "GET \(url) failed (curl exit \(result.status)): \(result.stderr) \(result.text)")
        }
        guard let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw Unavailable(description: "GET \(url) gave no JSON object: \(result.text)")
        }
        return object
    }

    /// What a plain client gets for one point in one language: a direct request without
    /// hubgeo's extras (no `namedetails`, no cache, no derivation).
    static func direct(_ point: Manifest.Point, language: String, zoom: Int) throws -> DirectAnswer {
        let object = try get("/reverse?lat=\(point.latText)&lon=\(point.lonText)&format=jsonv2&zoom=\(zoom)"
            + "&addressdetails=1&accept-language=\(language)")
        return DirectAnswer(object)
    }

    /// The manifest of the imported extract.
    static func manifest() throws -> Manifest {
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw Unavailable(description: "no manifest at \(manifestPath): the extract was never imported. \(howToStart)")
        }
        return try JSONDecoder().decode(Manifest.self, from: data)
    }
}

/// A direct answer's town and country, by the documented rule: the first of `address.city`,
/// `town`, `village`, `municipality`, `hamlet`, `suburb`; `address.country`.
struct DirectAnswer {
    static let townKeys = ["city", "town", "village", "municipality", "hamlet", "suburb"]

    var unableToGeocode: Bool
    var address: [String: String]
    var townKey: String?
    var town: String?
    var country: String?
    var raw: [String: Any]

    init(_ object: [String: Any]) {
        raw = object
        unableToGeocode = object["error"] as? String == "Unable to geocode"
        address = (object["address"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        townKey = Self.townKeys.first { address[$0] != nil }
        town = townKey.flatMap { address[$0] }
        country = address["country"]
    }
}

/// `places.json`, written by `make_extract.py` next to the extract: the points and the truth.
struct Manifest: Decodable {
    struct Town: Decodable {
        /// The address key that names it (`city`, `village`, ...).
        var key: String
        /// The name per language.
        var names: [String: String]
        /// The local name (the `name` tag), as Level 1 files write towns.
        var local: String
    }

    struct Point: Decodable, CustomStringConvertible {
        var id: String
        var `case`: String
        var lat: Double
        var lon: Double
        var countryCode: String?
        /// Country name per language; nil at sea.
        var country: [String: String]?
        /// The country's local name, answered when no language is asked; nil at sea.
        var countryLocal: String?
        /// The town at zoom 13-18; nil where there is none.
        var town: Town?
        /// The town at zoom 10, where villages, towns and hamlets are out of reach.
        var townZoom10: Town?

        var latText: String { String(lat) }
        var lonText: String { String(lon) }
        var description: String { "\(id) (\(self.case); \(lat), \(lon))" }

        /// The manifest knows zoom 10 and 13-18.
        func expectedTown(zoom: Int) -> Town? {
            precondition(zoom == 10 || zoom >= 13, "the manifest has no truth for zoom \(zoom)")
            return zoom >= 13 ? town : townZoom10
        }
    }

    /// A museum node of the extract, for `hubgeo locate`: its tags and the town and country
    /// Nominatim's address gives it.
    struct Museum: Decodable {
        var name: String
        var lat: Double
        var lon: Double
        var town: String
        var townKey: String
        var countryCode: String
        /// The country's name per language.
        var country: [String: String]
        var website: String
        var wikipedia: String
    }

    var extractSHA256: String
    var languages: [String]
    var points: [Point]
    var museums: [Museum]
}
