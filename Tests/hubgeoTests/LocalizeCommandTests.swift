import Foundation
import HubGeoTestSupport
import Testing

/// The built `hubgeo` binary against the stand-in, on the embedded data.
@Suite("localize command")
struct LocalizeCommandTests {
    /// Runs the built binary with only the given HUBGEO_* variables (none from the caller's shell).
    static func run(_ arguments: [String], environment: [String: String]) throws -> CLIRunner.Result {
        let home = try TestPaths.temporaryDirectory()
        var runner = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        for name in runner.environment.keys where name.hasPrefix("HUBGEO_") { runner.environment[name] = nil }
        runner.environment.merge(environment) { $1 }
        return try runner.run(arguments)
    }

    @Test("localize --lang en,nl finishes with its summary; a second run makes zero requests; --lang queries show it")
    func embeddedData() throws {
        let directory = try TestPaths.temporaryDirectory()
        let server = try NominatimStandIn.start()
        let environment = ["HUBGEO_DB": directory.path("hubgeo.sqlite"), "HUBGEO_NOMINATIM_URL": server.baseURL.absoluteString,
                           "HUBGEO_REQUEST_INTERVAL": "0", "HUBGEO_CONFIG": "/nonexistent"]
        let first = try Self.run(["localize", "--lang", "en,nl"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Went through 130 of 130 distinct coordinates (131 organizations) in 2 languages"), "\(first.stderr)")
        // Every point answers Eindhoven in the stand-in: one request per point, plus nl's country once.
        #expect(first.stderr.contains("Requests made: 131;"), "\(first.stderr)")
        #expect(try server.requests().count == 131)

        let second = try Self.run(["localize", "--lang", "en,nl"], environment: environment)
        #expect(second.status == 0)
        #expect(second.stderr.contains("Requests made: 0;") && second.stderr.contains("cache hits: 260"), "\(second.stderr)")
        #expect(try server.requests().count == 131)

        // Five languages cost no more than two: each point's answer is its town (the stand-in's
        // Eindhoven, with its names), and one zoom-3 request names the Netherlands in every language.
        var five = environment
        five["HUBGEO_DB"] = directory.path("five.sqlite")
        let fiveLanguages = try Self.run(["localize", "--lang", "en,nl,de,fr,ja"], environment: five)
        #expect(fiveLanguages.status == 0, "\(fiveLanguages.stderr)")
        #expect(fiveLanguages.stderr.contains("Requests made: 131;") && fiveLanguages.stderr.contains("answers fetched: 130,")
                && fiveLanguages.stderr.contains("derived without a request: 520,"), "\(fiveLanguages.stderr)")

        let near = try Self.run(["near", "51.42398", "5.4501", "--nearest", "1", "--lang", "nl", "--format", "json"], environment: environment)
        #expect(near.status == 0)
        #expect(near.stdout.contains("\"localizedCountry\" : \"Nederland\"") && near.stdout.contains("\"language\" : \"nl\""), "\(near.stdout)")
    }

    @Test("Resets of the kept-alive connection: every request, resends included, is paced and counted (as the server saw them)")
    func resetsArePacedAndCounted() throws {
        let directory = try TestPaths.temporaryDirectory()
        let ok = LoopbackServer.Response(headers: ["Content-Type": "application/json"],
                                         bodyFile: NominatimStandIn.standin.appendingPathComponent("eindhoven_en.json").path, times: 3)
        let reset = LoopbackServer.Response(action: .reset, times: 1)
        let server = try NominatimStandIn.start(faults: [ok, reset, ok, reset, ok, reset])
        let environment = ["HUBGEO_DB": directory.path("hubgeo.sqlite"), "HUBGEO_NOMINATIM_URL": server.baseURL.absoluteString,
                           "HUBGEO_REQUEST_INTERVAL": "0.1", "HUBGEO_CONFIG": "/nonexistent"]
        let run = try Self.run(["localize", "--lang", "en", "--type", "museum"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = try server.requests()
        #expect(requests.count > 3 + 3, "the three resets happened on kept-alive connections and were sent again")
        #expect(run.stderr.contains("Requests made: \(requests.count);"), "the server saw \(requests.count): \(run.stderr)")
        let gaps = arrivalGaps(requests)
        #expect(gaps.allSatisfy { $0 >= 0.1 * 0.95 }, "gaps under the interval: \(gaps.filter { $0 < 0.095 })")
    }

    @Test("--offline with an empty cache sends nothing; the public server needs a contact")
    func offlineAndContact() throws {
        let directory = try TestPaths.temporaryDirectory()
        let server = try NominatimStandIn.start()
        let environment = ["HUBGEO_DB": directory.path("hubgeo.sqlite"), "HUBGEO_NOMINATIM_URL": server.baseURL.absoluteString,
                           "HUBGEO_CONFIG": "/nonexistent"]
        let offline = try Self.run(["localize", "--lang", "en", "--offline"], environment: environment)
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("Requests made: 0;") && offline.stderr.contains("130 point-language pairs are not cached"), "\(offline.stderr)")
        #expect(try server.requests().isEmpty)

        let table = try Self.run(["search", "Waalre", "--lang", "en", "--type", "club"], environment: environment)
        #expect(table.status == 0 && table.stdout.contains("Waalre") && table.stdout.contains("Country"), "\(table.stdout)")

        let refused = try Self.run(["localize", "--lang", "en"], environment: ["HUBGEO_DB": directory.path("hubgeo.sqlite"), "HUBGEO_CONFIG": "/nonexistent"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("without a contact") && refused.stderr.contains("HUBGEO_CONTACT"), "\(refused.stderr)")
    }
}
