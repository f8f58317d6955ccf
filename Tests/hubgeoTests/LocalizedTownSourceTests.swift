import Foundation
@testable import HubGeoDatabase
import HubGeoModel
import HubGeoTestSupport
import Testing

/// Where a localized town comes from, and which cached answers the queries show, through the
/// built binary: `hubgeo localize` against Nominatim stand-ins on 127.0.0.1, then the queries
/// and exports as a user runs them.
@Suite("Localized town source and the answers of one endpoint and zoom")
struct LocalizedTownSourceTests {
    /// Clubs at stand-in places whose Level 1 towns differ from Nominatim's, and a museum that
    /// `localize --type club` never reaches.
    static let clubs = [
        Level1Builder.Entry(town: "Woensel", fullName: "Fotoclub Woensel", nickName: "fcWoensel",
                            latitude: NominatimStandIn.places["eindhoven"]!.latitude, longitude: NominatimStandIn.places["eindhoven"]!.longitude),
        // Nominatim knows only the country there (Austria).
        Level1Builder.Entry(town: "Galtür", fullName: "Fotoklub Galtür", nickName: "fkGaltur",
                            latitude: NominatimStandIn.places["nowhere"]!.latitude, longitude: NominatimStandIn.places["nowhere"]!.longitude),
        // "Unable to geocode": no place at all.
        Level1Builder.Entry(town: "Doggersbank", fullName: "Fotoclub Doggersbank", nickName: "fcDogger",
                            latitude: NominatimStandIn.places["sea"]!.latitude, longitude: NominatimStandIn.places["sea"]!.longitude),
    ]
    static let museums = [
        Level1Builder.Entry(town: "Waalre", fullName: "Museum Waalre", nickName: "muWaalre",
                            latitude: NominatimStandIn.places["waalre"]!.latitude, longitude: NominatimStandIn.places["waalre"]!.longitude),
    ]

    /// A runner with its own database holding `clubs` and `museums`, and no HUBGEO_* settings
    /// but `environment` (the config file: none unless given).
    static func runner(in directory: TemporaryDirectory, environment: [String: String] = [:]) throws -> CLIRunner {
        var runner = CLIRunner(database: directory.path("hubgeo.sqlite"), home: directory.url.path)
        for name in runner.environment.keys where name.hasPrefix("HUBGEO_") { runner.environment[name] = nil }
        runner.environment["HUBGEO_DB"] = directory.path("hubgeo.sqlite")
        runner.environment["HUBGEO_CONFIG"] = "/nonexistent"
        runner.environment.merge(environment) { $1 }
        let file = directory.path("test.level1.json")
        try Level1Builder.level1(clubs: clubs, museums: museums).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try runner.run(["import", file])
        try #require(imported.status == 0, "\(imported.stderr)")
        return runner
    }

    static func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text)")
    }

    static func byNickName(_ objects: [[String: Any]], key: String = "nickName") -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: objects.map { ($0[key] as? String ?? "?", $0) })
    }

    /// The value of a `show` line: what follows `label` and the padding.
    static func value(_ page: String, _ label: String) -> String? {
        page.split(separator: "\n").first { $0.hasPrefix(label + "  ") }
            .map { $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    /// The localized fields of one organization in query JSON, GeoJSON properties or KML data.
    static func localized(_ fields: [String: Any]) -> [String] {
        ["localizedTown", "localizedTownSource", "localizedCountry"].map { (fields[$0] as? String) ?? "-" }
    }

    @Test("No town from Nominatim: the Level 1 town, source level1, in table, JSON, GeoJSON and KML; never localized: none")
    func level1Fallback() throws {
        let directory = try TestPaths.temporaryDirectory()
        let server = try NominatimStandIn.start()
        let cli = try Self.runner(in: directory, environment: ["HUBGEO_NOMINATIM_URL": server.baseURL.absoluteString,
                                                               "HUBGEO_REQUEST_INTERVAL": "0"])
        let localize = try cli.run(["localize", "--lang", "en", "--type", "club"])
        try #require(localize.status == 0, "\(localize.stderr)")

        let expected: [String: [String]] = [
            "fcWoensel": ["Eindhoven", "nominatim", "Netherlands"],
            "fkGaltur": ["Galtür", "level1", "Austria"],
            "fcDogger": ["Doggersbank", "level1", "-"],
            "muWaalre": ["-", "-", "-"],
        ]

        // Query JSON, streamed (search) and from `show`.
        let json = try cli.run(["search", "", "--lang", "en", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = Self.byNickName(try Self.jsonObjects(json.stdout))
        #expect(objects.mapValues(Self.localized) == expected)
        #expect(objects.values.allSatisfy { $0["language"] as? String == "en" })
        #expect(json.stderr.contains("No answer cached in en from \(server.baseURL.absoluteString) at zoom 14 for 1 of 4 organizations"),
                "\(json.stderr)")
        for (nickName, fields) in expected {
            let show = try cli.run(["show", nickName, "--lang", "en", "--format", "json"])
            #expect(show.status == 0, "\(show.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            #expect(Self.localized(object) == fields, "show \(nickName)")
        }

        // Without --lang: no localized field anywhere.
        let plain = try cli.run(["search", "", "--format", "json"])
        #expect(try Self.jsonObjects(plain.stdout).allSatisfy { Self.localized($0) == ["-", "-", "-"] && $0["language"] == nil })
        #expect(!plain.stderr.contains("No answer cached"))

        // GeoJSON: the export and the query output.
        for arguments in [["export", "geojson", "--lang", "en"], ["search", "", "--lang", "en", "--format", "geojson"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let collection = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let features = try #require(collection["features"] as? [[String: Any]])
            let properties = Self.byNickName(features.compactMap { $0["properties"] as? [String: Any] })
            #expect(properties.mapValues(Self.localized) == expected, "\(arguments)")
            let squeezed = result.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
            #expect(squeezed.contains("\"town\":\"Galtür\",\"localizedTown\":\"Galtür\",\"localizedTownSource\":\"level1\","
                                      + "\"localizedCountry\":\"Austria\",\"language\":\"en\""), "property order: \(result.stdout)")
        }

        // KML ExtendedData, in the order of the GeoJSON properties, and the balloon's town.
        let kmlPath = directory.path("clubs.kml")
        let kml = try cli.run(["export", "kml", "--lang", "en", "-o", kmlPath])
        #expect(kml.status == 0, "\(kml.stderr)")
        let placemarks = try KMLReader.read(Data(contentsOf: URL(fileURLWithPath: kmlPath))).placemarks
        let data = Dictionary(uniqueKeysWithValues: placemarks.map { ($0.data["nickName"] ?? "?", $0) })
        #expect(data.mapValues { Self.localized($0.data) } == expected)
        let galtur = try #require(data["fkGaltur"])
        #expect(galtur.dataOrder.prefix(7) == ["name", "nickName", "type", "town", "localizedTown", "localizedTownSource", "localizedCountry"])
        #expect(galtur.description?.contains("Town: Galtür") == true && galtur.description?.contains("Country: Austria") == true)
        let schema = try CommandRunner.tool("xmllint", ["--noout", "--nonet", "--schema", ExportToolTests.schema, kmlPath],
                                            package: "libxml2-utils")
        #expect(schema.status == 0, "\(schema.stderr)")

        // The table marks the Level 1 towns and explains the mark; the others are unmarked.
        let table = try cli.run(["search", "", "--lang", "en"])
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.stdout.split(separator: "\n").map(String.init)
        func row(_ name: String) -> String { rows.first { $0.hasPrefix(name) } ?? "" }
        #expect(row("Fotoklub Galtür").contains("Galtür *") && row("Fotoklub Galtür").contains("Austria"), "\(table.stdout)")
        #expect(row("Fotoclub Doggersbank").contains("Doggersbank *"), "\(table.stdout)")
        #expect(row("Fotoclub Woensel").contains("Eindhoven") && !row("Fotoclub Woensel").contains("*"), "\(table.stdout)")
        #expect(row("Museum Waalre").contains("Waalre") && !row("Museum Waalre").contains("*"), "\(table.stdout)")
        #expect(rows.last == "* Level 1 town: the cached Nominatim answer (en) has no town at these coordinates", "\(table.stdout)")
        let unmarked = try cli.run(["search", "Woensel", "--lang", "en"])
        #expect(unmarked.status == 0 && !unmarked.stdout.contains("*"), "no legend without a marked town: \(unmarked.stdout)")

        // `show`: the marked town, the country, the legend.
        let show = try cli.run(["show", "fkGaltur", "--lang", "en"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(Self.value(show.stdout, "Town (en)") == "Galtür *" && Self.value(show.stdout, "Country (en)") == "Austria"
                && show.stdout.hasSuffix("\n\n* Level 1 town: the cached Nominatim answer (en) has no town at these coordinates\n"),
                "\(show.stdout)")
        let sea = try cli.run(["show", "fcDogger", "--lang", "en"])
        #expect(Self.value(sea.stdout, "Town (en)") == "Doggersbank *"
                && Self.value(sea.stdout, "Country (en)") == "(none: Nominatim found no place here)", "\(sea.stdout)")
        let never = try cli.run(["show", "muWaalre", "--lang", "en"])
        #expect(Self.value(never.stdout, "Town (en)") == "Waalre (not localized)" && !never.stdout.contains("*"), "\(never.stdout)")
        let nominatim = try cli.run(["show", "fcWoensel", "--lang", "en"])
        #expect(Self.value(nominatim.stdout, "Town (en)") == "Eindhoven" && !nominatim.stdout.contains("*"), "\(nominatim.stdout)")
    }

    @Test("--lang shows only the answers of the configured endpoint and zoom: flags, environment, config file")
    func oneEndpointOneZoom() throws {
        let directory = try TestPaths.temporaryDirectory()
        // Endpoint A answers Berlicum at zoom 18 and Eindhoven at zoom 14; endpoint B answers Waalre.
        let berlicum = LoopbackServer.Response(headers: ["Content-Type": "application/json"],
                                               bodyFile: NominatimStandIn.standin.appendingPathComponent("berlicum_en.json").path,
                                               when: ["zoom": "18"])
        let a = try NominatimStandIn.start(faults: [berlicum])
        let waalre = LoopbackServer.Response(headers: ["Content-Type": "application/json"],
                                             bodyFile: NominatimStandIn.standin.appendingPathComponent("waalre_en.json").path)
        let b = try LoopbackServer(script: ["/reverse": [waalre]], lifetime: 60)
        let urlA = a.baseURL.absoluteString, urlB = b.baseURL.absoluteString
        let cli = try Self.runner(in: directory, environment: ["HUBGEO_REQUEST_INTERVAL": "0"])
        for arguments in [["--nominatim-url", urlA, "--zoom", "18"], ["--nominatim-url", urlA], ["--nominatim-url", urlB]] {
            let run = try cli.run(["localize", "--lang", "en", "--type", "club"] + arguments)
            try #require(run.status == 0, "\(arguments): \(run.stderr)")
        }
        #expect(try OrganizationStore(path: directory.path("hubgeo.sqlite"), access: .readOnly).geocodeCache.count() == 9)

        var configs = 0
        /// The localized town of fcWoensel (at a point with a town at every endpoint and zoom).
        func town(_ arguments: [String], environment: [String: String] = [:], config: String? = nil) throws -> String {
            var runner = cli
            runner.environment.merge(environment) { $1 }
            if let config {
                configs += 1
                let path = directory.path("config-\(configs)")
                try config.write(toFile: path, atomically: true, encoding: .utf8)
                runner.environment["HUBGEO_CONFIG"] = path
            }
            let result = try runner.run(["search", "Woensel", "--lang", "en", "--format", "json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let objects = try Self.jsonObjects(result.stdout)
            return objects.first.map { Self.localized($0).prefix(2).joined(separator: " ") } ?? "none"
        }
        // Flags.
        #expect(try town(["--nominatim-url", urlA]) == "Eindhoven nominatim")
        #expect(try town(["--nominatim-url", urlA, "--zoom", "14"]) == "Eindhoven nominatim")
        #expect(try town(["--nominatim-url", urlA, "--zoom", "18"]) == "Berlicum nominatim")
        #expect(try town(["--nominatim-url", urlB + "/"]) == "Waalre nominatim")
        #expect(try town(["--nominatim-url", urlB, "--zoom", "18"]) == "- -", "nothing cached there")
        #expect(try town([]) == "- -", "the public server's answers: none cached")
        // The environment, and flags over it.
        #expect(try town([], environment: ["HUBGEO_NOMINATIM_URL": urlA]) == "Eindhoven nominatim")
        #expect(try town([], environment: ["HUBGEO_NOMINATIM_URL": urlA, "HUBGEO_NOMINATIM_ZOOM": "18"]) == "Berlicum nominatim")
        #expect(try town(["--zoom", "14"], environment: ["HUBGEO_NOMINATIM_URL": urlA, "HUBGEO_NOMINATIM_ZOOM": "18"])
                == "Eindhoven nominatim")
        #expect(try town(["--nominatim-url", urlB], environment: ["HUBGEO_NOMINATIM_URL": urlA]) == "Waalre nominatim")
        // The config file, and the environment over it.
        #expect(try town([], config: "nominatim-url = \(urlA)\nzoom = 18\n") == "Berlicum nominatim")
        #expect(try town([], config: "nominatim-url = \(urlB)\n") == "Waalre nominatim")
        #expect(try town([], environment: ["HUBGEO_NOMINATIM_ZOOM": "14"], config: "nominatim-url = \(urlA)\nzoom = 18\n")
                == "Eindhoven nominatim")

        // The table, `show` and both exports agree.
        var onA = cli
        onA.environment["HUBGEO_NOMINATIM_URL"] = urlA
        let table18 = try onA.run(["search", "Woensel", "--lang", "en", "--zoom", "18"])
        #expect(table18.stdout.contains("Berlicum") && !table18.stdout.contains("Eindhoven"), "\(table18.stdout)")
        let show14 = try onA.run(["show", "fcWoensel", "--lang", "en"])
        #expect(Self.value(show14.stdout, "Town (en)") == "Eindhoven" && !show14.stdout.contains("Berlicum"), "\(show14.stdout)")
        let show18 = try onA.run(["show", "fcWoensel", "--lang", "en", "--zoom", "18", "--format", "json"])
        #expect(show18.stdout.contains("\"localizedTown\" : \"Berlicum\""), "\(show18.stdout)")
        let geoJSON18 = try onA.run(["export", "geojson", "--lang", "en", "--zoom", "18", "--search", "Woensel"])
        #expect(geoJSON18.stdout.contains("\"localizedTown\":\"Berlicum\"") && !geoJSON18.stdout.contains("Eindhoven"), "\(geoJSON18.stdout)")
        let kml14 = try onA.run(["export", "kml", "--lang", "en", "--search", "Woensel"])
        #expect(kml14.stdout.contains("<Data name=\"localizedTown\"><value>Eindhoven</value></Data>")
                && !kml14.stdout.contains("Berlicum"), "\(kml14.stdout)")
        let nearB = try onA.run(["near", "51.42398", "5.4501", "--nearest", "1", "--lang", "en", "--nominatim-url", urlB, "--format", "json"])
        #expect(nearB.stdout.contains("\"localizedTown\" : \"Waalre\""), "\(nearB.stdout)")
    }

    @Test("--zoom and --nominatim-url go with --lang; --help of every command with --lang says which answers it shows")
    func usageAndHelp() throws {
        let directory = try TestPaths.temporaryDirectory()
        let cli = try Self.runner(in: directory)
        for arguments in [["search", "x", "--zoom", "18"], ["near", "51", "5", "--nominatim-url", "http://127.0.0.1:1"],
                          ["show", "fcWoensel", "--zoom", "14"], ["export", "geojson", "--zoom", "14"],
                          ["search", "x", "--lang", "en", "--zoom", "19"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        }
        let badURL = try cli.run(["search", "x", "--lang", "en", "--nominatim-url", "ftp://example.org"])
        #expect(badURL.status == 1 && badURL.stderr.contains("not an http(s) URL"), "\(badURL.stderr)")
        // The settings are read only with --lang: a broken config file stops no other query.
        let config = directory.path("broken-config")
        try "zoom = 99\n".write(toFile: config, atomically: true, encoding: .utf8)
        var broken = cli
        broken.environment["HUBGEO_CONFIG"] = config
        for arguments in [["search", "Woensel"], ["near", "51.4", "5.4", "--km", "50"], ["show", "fcWoensel"], ["export", "kml"]] {
            let result = try broken.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
        let withLanguage = try broken.run(["search", "Woensel", "--lang", "en"])
        #expect(withLanguage.status == 1 && withLanguage.stderr.contains("\(config):1: zoom \"99\" is not a whole number from 0 to 18"), "\(withLanguage.stderr)")
        for command in ["near", "bbox", "search", "show", "export"] {
            let help = try cli.run([command, "--help"])
            let text = help.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            #expect(text.contains("Only the answers of the Nominatim endpoint and zoom that localize would use")
                    && text.contains("--zoom") && text.contains("--nominatim-url") && text.contains("$HUBGEO_NOMINATIM_ZOOM")
                    && text.contains("Level 1 town"), "\(command) --help: \(help.stdout)")
        }
    }
}
