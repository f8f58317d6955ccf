import Foundation
import HubGeoTestSupport
import Testing

/// `hubgeo locate`: the built binary against the Nominatim stand-in (answers recorded from the
/// integration tier's real Nominatim 5.3.3), as a user runs it.
@Suite("locate command")
struct LocateCommandTests {
    static func runner(_ server: LoopbackServer?, in directory: TemporaryDirectory) -> CLIRunner {
        NominatimStandIn.runner(server, in: directory)
    }

    @Test("A table of candidates to stdout, the source to stderr; the same search again is answered from the cache")
    func tableAndCache() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let runner = Self.runner(server, in: directory)
        let first = try runner.run(["locate", "Fotomuseum Den Haag"])
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("#  Name") == true, "\(first.stdout)")
        #expect(lines.contains { $0.hasPrefix("1  Fotomuseum Den Haag  museum  Den Haag  Nederland") && $0.contains("52.0896")
            && $0.contains("4.2803") && $0.contains("node 68") && $0.contains("https://www.fotomuseumdenhaag.nl/") }, "\(first.stdout)")
        #expect(first.stdout.contains("nl:Fotomuseum Den Haag"))
        #expect(first.stderr.contains("1 candidate from \(server.baseURL.absoluteString)"), "\(first.stderr)")
        let again = try runner.run(["locate", "Fotomuseum Den Haag"])
        #expect(again.status == 0 && again.stdout == first.stdout)
        #expect(again.stderr.contains("1 candidate from the cache"), "\(again.stderr)")
        #expect(try server.requests().count == 1)
        let offline = try runner.run(["locate", "Fotomuseum Den Haag", "--offline"])
        #expect(offline.status == 0 && offline.stdout == first.stdout)
        let refreshed = try runner.run(["locate", "Fotomuseum Den Haag", "--refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr.contains("from \(server.baseURL.absoluteString)"))
        #expect(try server.requests().count == 2)
    }

    @Test("--format json: every field; --lang asks for that language; --near sends a viewbox, negative numbers too")
    func json() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let run = try Self.runner(server, in: directory).run(["locate", "Antwerpen", "--lang", "en", "--near", "51.2", "-4.4", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let candidates = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let antwerp = try #require(candidates.first)
        #expect(antwerp["name"] as? String == "Antwerp" && antwerp["kind"] as? String == "city" && antwerp["town"] as? String == "Antwerp")
        #expect(antwerp["country"] as? String == "Belgium" && antwerp["osmType"] as? String == "relation" && antwerp["osmID"] as? Int == 4)
        let coordinates = try #require(antwerp["coordinates"] as? [String: Double])
        #expect(coordinates["latitude"] == 51.2194 && coordinates["longitude"] == 4.4025)
        let query = queryParameters(try #require(try server.requests().first))
        #expect(query["accept-language"] == "en" && query["limit"] == "5")
        let box = try #require(query["viewbox"]).split(separator: ",").compactMap { Double($0) }
        #expect(box.count == 4 && box[0] < -4.4 && box[2] > -4.4 && box[1] > 51.2 && box[3] < 51.2, "\(box)")
    }

    /// `entry` pasted as the first element of `file`'s "clubs" (or "museums") array, as a keeper pastes it.
    static func paste(_ entry: String, into file: URL, array: String = "clubs") throws {
        var text = try String(contentsOf: file, encoding: .utf8)
        let opening = try #require(text.range(of: "\"\(array)\": ["))
        text.insert(contentsOf: "\n" + entry + ",\n", at: opening.upperBound)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    @Test("--format level1: a ready entry that, pasted into a copy of a Level 1 file, validates with 0 errors and imports")
    func level1Club() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let runner = Self.runner(server, in: directory)
        let run = try runner.run(["locate", "Asten", "--format", "level1", "--name", "Fotoclub Nieuw Asten"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            {
                "idPlus": {
                    "town": "Asten",
                    "fullName": "Fotoclub Nieuw Asten",
                    "nickName": "fcNieuwAsten"
                },
                "coordinates": {
                    "latitude": 51.4037,
                    "longitude": 5.7486
                }
            }

            """)
        let copy = directory.url.appendingPathComponent("TemplateMin.level1.json")
        try FileManager.default.copyItem(at: TestPaths.data.appendingPathComponent("TemplateMin.level1.json"), to: copy)
        try Self.paste(run.stdout, into: copy)
        let validate = try runner.run(["validate", copy.path])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains("1 file, 3 organizations: 0 errors, 0 warnings"), "\(validate.stdout)")
        let imported = try runner.run(["import", copy.path, "--db", directory.path("pasted.sqlite")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try runner.run(["show", "fcNieuwAsten", "--db", directory.path("pasted.sqlite")])
        #expect(shown.status == 0 && shown.stdout.contains("Asten"), "\(shown.stdout)\(shown.stderr)")
    }

    @Test("--format level1 --type museum: website and the Wikipedia article from OpenStreetMap, in the museums array")
    func level1Museum() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let runner = Self.runner(server, in: directory)
        let run = try runner.run(["locate", "Fotomuseum Den Haag", "--format", "level1", "--type", "museum", "--nickname", "FM Den Haag"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""website": "https://www.fotomuseumdenhaag.nl/""#)
                && run.stdout.contains(#""wikipedia": "https://nl.wikipedia.org/wiki/Fotomuseum_Den_Haag""#), "\(run.stdout)")
        let file = try directory.write("new.level1.json", "{\n    \"museums\": [\n    ]\n}\n")
        try Self.paste(String(run.stdout.dropLast()), into: file, array: "museums")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "},\n\n    ]", with: "}\n    ]")
            .write(to: file, atomically: true, encoding: .utf8)
        let validate = try runner.run(["validate", file.path])
        #expect(validate.status == 0 && validate.stdout.contains("1 file, 1 organization: 0 errors"), "\(validate.stdout)\(validate.stderr)")
    }

    @Test("Usage errors name the parameter and exit 64")
    func usage() throws {
        let runner = Self.runner(nil, in: try TestPaths.temporaryDirectory())
        for (arguments, message) in [
            (["locate"], "Missing expected argument '<query>'"),
            (["locate", "x", "--limit", "0"], "--limit must be 1 to 40"),
            (["locate", "x", "--near", "51.4"], "--near takes two numbers"),
            (["locate", "x", "--near", "91", "5"], "latitude"),
            (["locate", "x", "--name", "y"], "--name goes with --format level1"),
            (["locate", "x", "--format", "level1", "--pick", "6"], "--pick must be 1 to --limit"),
            (["locate", "x", "--zoom", "10"], "Unknown option '--zoom'"),
            (["locate", "x", "--lang", "e_n"], "not a language code"),
            (["locate", "x", "--format", "xml"], "--format"),
            (["locate", "x", "--nearr", "5"], "Did you mean '--near'?"),
        ] {
            let run = try runner.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        // --zoom is for reverse lookups: listed by the commands that make them, not by locate.
        let help = try runner.run(["locate", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--nominatim-url") && !help.stdout.contains("--zoom"), "\(help.stdout)")
        for command in ["localize", "geocode", "validate"] {
            let other = try runner.run([command, "--help"])
            #expect(other.status == 0 && other.stdout.contains("--zoom <level>"), "\(command): \(other.stdout)")
        }
    }

    @Test("Nothing found, not cached offline, no network: exit 1 with a clear message; nothing fetched offline")
    func failures() throws {
        let server = try NominatimStandIn.start()
        let directory = try TestPaths.temporaryDirectory()
        let runner = Self.runner(server, in: directory)
        // The query comes back as typed (the request sends it with its white space collapsed).
        let none = try runner.run(["locate", " Fotokring  Beeldhoek Asten"])
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderr.contains("Nominatim found no place for \" Fotokring  Beeldhoek Asten\""),
                "\(none.stderr)")
        let offline = try runner.run(["locate", "Berlicum", "--offline"])
        #expect(offline.status == 1 && offline.stderr.contains("not in the cache") && offline.stderr.contains("without --offline"), "\(offline.stderr)")
        #expect(try server.requests().count == 1)
        let closed = try RefusingPort()
        var down = runner
        down.environment["HUBGEO_NOMINATIM_URL"] = "http://127.0.0.1:\(closed.port)"
        let unreachable = try down.run(["locate", "Asten"])
        #expect(unreachable.status == 1 && unreachable.stderr.contains("Error:") && unreachable.stderr.contains("127.0.0.1:\(closed.port)"),
                "\(unreachable.stderr)")
    }

    static let hostileName = "::error title=x::Fake\u{1B}[31m ##[add-mask]Museum"

    static func hostileServer() throws -> LoopbackServer {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: [[
            "osm_type": "node", "osm_id": 7, "lat": "51.4", "lon": "5.7", "category": "tourism", "type": "museum",
            "addresstype": "tourism", "name": hostileName,
            "address": ["tourism": hostileName, "village": "::warning::Dorp\u{7}", "country": "Nederland", "country_code": "nl"],
            "extratags": ["website": "https://example.org/##[stop-commands]x"],
        ]]), as: UTF8.self)
        return try NominatimStandIn.start(searchFaults: [LoopbackServer.Response(status: 200, body: body, when: ["q": "hostile"])])
    }

    @Test("Hostile names: the table shows no control character raw; in a GitHub Actions log no line is a workflow command")
    func hostileTable() throws {
        let server = try Self.hostileServer()
        let directory = try TestPaths.temporaryDirectory()
        var runner = Self.runner(server, in: directory)
        let table = try runner.run(["locate", "hostile"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(!table.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(table.stdout.debugDescription)")
        #expect(table.stdout.contains("\\u{1B}[31m") && table.stdout.contains("\\u{7}"), "\(table.stdout)")
        runner.environment["GITHUB_ACTIONS"] = "true"
        for format in ["table", "json"] {
            let run = try runner.run(["locate", "hostile", "--format", format])
            #expect(run.status == 0, "\(run.stderr)")
            for line in (run.stdout + run.stderr).split(separator: "\n") {
                #expect(!line.contains("##[") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("::"), "\(format): \(line)")
            }
            #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
        // JSON keeps the exact text behind its escapes.
        runner.environment["GITHUB_ACTIONS"] = nil
        let json = try runner.run(["locate", "hostile", "--format", "json"])
        let first = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(first["name"] as? String == Self.hostileName && first["town"] as? String == "::warning::Dorp\u{7}")
    }

    @Test("Hostile names: --format level1 refuses the entry, naming the failed check, and prints nothing")
    func hostileLevel1() throws {
        let server = try Self.hostileServer()
        let directory = try TestPaths.temporaryDirectory()
        let run = try Self.runner(server, in: directory).run(["locate", "hostile", "--format", "level1"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("does not pass hubgeo's Level 1 checks") && run.stderr.contains("idPlus.town"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(run.stderr.debugDescription)")
    }
}
