import Foundation
import HubGeoTestSupport
import Testing

/// `hubgeo locate` and the suggestions of `validate --geocode` against the real Nominatim 5.3.3
/// (`make test-integration`): the extract's museum nodes (`make_extract.py`), with their
/// `website` and `wikipedia` tags, found by name; a Level 1 entry that validates and imports.
@Suite("hubgeo locate against a real Nominatim 5.3.3", .serialized)
struct RealNominatimLocateTests {
    static let flags = ["--nominatim-url", RealNominatim.endpoint, "--request-interval", "0"]

    @Test("every museum of the extract is found by its name: kind, town and country by localize's rule, position, OSM node, website, wikipedia")
    func museumsByName() throws {
        try RealNominatim.requireServer()
        let manifest = try RealNominatim.manifest()
        #expect(manifest.museums.count >= 3)
        let session = try RealNominatimTests.Session()
        for museum in manifest.museums {
            for language in [nil, "en"] as [String?] {
                let result = try session.run(["locate", museum.name, "--format", "json"] + (language.map { ["--lang", $0] } ?? []) + Self.flags)
                #expect(result.status == 0, "\(museum.name): \(result.stderr)")
                let candidates = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
                let first = try #require(candidates.first, "\(museum.name): nothing found")
                #expect(first["name"] as? String == museum.name && first["kind"] as? String == "museum", "\(first)")
                #expect(first["townKey"] as? String == museum.townKey && first["osmType"] as? String == "node", "\(first)")
                #expect(first["website"] as? String == museum.website && first["wikipedia"] as? String == museum.wikipedia, "\(first)")
                let coordinates = try #require(first["coordinates"] as? [String: Double])
                #expect(coordinates["latitude"] == museum.lat && coordinates["longitude"] == museum.lon)
                if let language {
                    #expect(first["country"] as? String == museum.country[language], "\(first)")
                } else {
                    #expect(first["town"] as? String == museum.town, "\(first)")
                }
            }
        }
    }

    @Test("a museum's --format level1 entry, pasted into a Level 1 file, validates with 0 errors and imports with its links")
    func museumEntryValidatesAndImports() throws {
        try RealNominatim.requireServer()
        let museum = try #require(try RealNominatim.manifest().museums.first { $0.town == "Asten" })
        let session = try RealNominatimTests.Session()
        let entry = try session.run(["locate", museum.name, "--format", "level1", "--type", "museum"] + Self.flags)
        #expect(entry.status == 0, "\(entry.stderr)")
        let file = session.home.url.appendingPathComponent("museumsIT.level1.json")
        try ("{\n    \"museums\": [\n" + entry.stdout + "    ]\n}\n").write(to: file, atomically: true, encoding: .utf8)
        let validate = try session.run(["validate", file.path])
        #expect(validate.status == 0 && validate.stdout.contains("1 file, 1 organization: 0 errors, 0 warnings"), "\(validate.stdout)\(validate.stderr)")
        let imported = try session.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try session.run(["search", "Klok", "--format", "json"])
        let organization = try #require((try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])?.first, "\(shown.stdout)")
        #expect(organization["town"] as? String == museum.town && organization["type"] as? String == "museum")
        #expect(organization["website"] as? String == museum.website)
        #expect(organization["wikipedia"] as? String == "https://nl.wikipedia.org/wiki/Museum_Klok_&_Peel", "\(organization)")
    }

    @Test("Fotokring Beeldhoek from `locate Asten`, pasted over its entry in a copy of Data/, validates with no new problem; at (0, 0) under --geocode it gets a suggestion within 5 km of Asten")
    func clubFromTownAndSuggestion() throws {
        try RealNominatim.requireServer()
        let session = try RealNominatimTests.Session()
        let entry = try session.run(["locate", "Asten", "--format", "level1", "--name", "Fotokring Beeldhoek", "--nickname", "fkBeeldhoek"]
            + Self.flags)
        #expect(entry.status == 0, "\(entry.stderr)")
        let data = session.home.url.appendingPathComponent("Data")
        try FileManager.default.copyItem(at: TestPaths.data, to: data)
        let file = data.appendingPathComponent("clubsNL16.level1.json")
        let original = try String(contentsOf: file, encoding: .utf8)
        // The club's entry, as the file writes it (8 spaces in), replaced by the pasted one.
        let marker = try #require(original.range(of: "\"town\": \"Asten\",\n                \"fullName\": \"Fotokring Beeldhoek\""))
        let start = try #require(original.range(of: "\n        {\n", options: .backwards, range: original.startIndex..<marker.lowerBound))
        let end = try #require(original.range(of: "\n        }", range: marker.upperBound..<original.endIndex))
        let pasted = entry.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { "        " + $0 }.joined(separator: "\n")
        try original.replacingCharacters(in: original.index(after: start.lowerBound)..<end.upperBound, with: pasted).write(to: file, atomically: true, encoding: .utf8)
        // --baseline: the same tree before the paste (BASE stands for the current directory).
        let before = session.home.url.appendingPathComponent("before")
        try FileManager.default.createDirectory(at: before, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.data, to: before.appendingPathComponent("Data"))
        let baseline = try CITestSupport.hubgeo(in: session.home.url, ["validate", "Data", "--baseline", "before", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: baseline.stdout) as? [String: Any])
        #expect(report["errors"] as? Int == 0, "\(String(decoding: baseline.stdout, as: UTF8.self))\(baseline.stderr)")
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(!diagnostics.contains { $0["severity"] as? String == "error" }, "\(diagnostics)")

        // The same club at (0, 0), under --geocode: the suggestion lies within 5 km of Asten (its coordinates in Data/).
        let zero = session.home.url.appendingPathComponent("zero.level1.json")
        try ("{\n    \"clubs\": [\n" + entry.stdout.replacingOccurrences(of: "\"latitude\": 51.4037", with: "\"latitude\": 0")
            .replacingOccurrences(of: "\"longitude\": 5.7486", with: "\"longitude\": 0") + "    ]\n}\n")
            .write(to: zero, atomically: true, encoding: .utf8)
        let geocode = try session.run(["validate", "--geocode", zero.path, "--format", "json"] + Self.flags)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(geocode.stdout.utf8)) as? [String: Any], "\(geocode.stderr)")
        let suggested = (object["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["suggestion"] as? [String: Any] }
        #expect(!suggested.isEmpty, "\(geocode.stdout)")
        for suggestion in suggested {
            let latitude = try #require(suggestion["latitude"] as? Double), longitude = try #require(suggestion["longitude"] as? Double)
            #expect(Self.kilometres(latitude, longitude, 51.40235, 5.74476) < 5, "\(suggestion)")
        }
    }

    /// The great-circle distance, for a bound of kilometres (not hubgeo's own geodesic, which is under test elsewhere).
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * radians / 2), 2) + cos(lat1 * radians) * cos(lat2 * radians) * pow(sin((lon2 - lon1) * radians / 2), 2)
        return 6371.0088 * 2 * asin(min(1, sqrt(a)))
    }
}
