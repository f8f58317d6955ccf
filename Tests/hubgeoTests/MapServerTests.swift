import Foundation
import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hubgeo serve` run as a user would, on 127.0.0.1, against the CLI on the same database.
@Suite("hubgeo serve", .serialized)
struct MapServerTests {
    @Test("the API answers what the CLI answers; bad input gets a 400 naming the parameter; SIGTERM stops it")
    func apiMatchesCLI() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        #expect(try cli.run(["stats"]).status == 0)
        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)

        // near: the same features, in the same order, as `near --format geojson`.
        for (path, arguments) in [
            ("/api/near?lat=51.4&lon=5.4&km=20", ["near", "51.4", "5.4", "--km", "20"]),
            ("/api/near?lat=51.4&lon=5.4&nearest=10&lang=nl&type=club", ["near", "51.4", "5.4", "--nearest", "10", "--lang", "nl", "--type", "club"]),
            ("/api/near?lat=-33.87&lon=151.21&km=5000", ["near", "-33.87", "151.21", "--km", "5000"]),
        ] {
            let api = try server.get(path)
            let expected = try cli.run(arguments + ["--format", "geojson"])
            #expect(api.status == 200 && api.contentType?.hasPrefix("application/geo+json") == true, "\(path): \(api.status)")
            #expect(jsonObject(api.body) == jsonObject(expected.stdout), "\(path)")
            #expect(!featureIDs(api.body).isEmpty)
        }
        // bbox and search: byte for byte what `export geojson` writes with the same filter.
        for (path, arguments) in [
            ("/api/bbox?minlat=50&minlon=3&maxlat=54&maxlon=8", ["--bbox", "50", "3", "54", "8"]),
            ("/api/bbox?minlat=-60&minlon=170&maxlat=60&maxlon=-60", ["--bbox", "-60", "170", "60", "-60"]),
            ("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180&type=museum&lang=de", ["--bbox", "-90", "-180", "90", "180", "--type", "museum", "--lang", "de"]),
            ("/api/search?q=waalre", ["--search", "waalre"]),
            ("/api/search?q=F%C3%93TO+club", ["--search", "FÓTO club"]),
        ] {
            let api = try server.get(path)
            let expected = try cli.run(["export", "geojson"] + arguments)
            #expect(api.status == 200, "\(path): \(api.status) \(api.body)")
            #expect(api.body == expected.stdout, "\(path)")
        }
        #expect(featureIDs(try server.get("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180").body).count == 131)

        let one = try server.get("/api/organizations/55fc03ca02c74e5d?lang=en")
        let shown = try cli.run(["show", "55fc03ca02c74e5d", "--lang", "en", "--format", "geojson"])
        #expect(one.status == 200)
        #expect(jsonObject(one.body) == jsonObject(shown.stdout))
        // Stats: as the CLI's, but the database's path is for the operator only.
        let stats = try server.get("/api/stats")
        let cliStats = try cli.run(["stats", "--format", "json"])
        var cliFields = jsonObject(cliStats.stdout) as? [String: Any] ?? [:]
        #expect(cliFields.removeValue(forKey: "databasePath") != nil)
        #expect(stats.status == 200 && jsonObject(stats.body) == NSDictionary(dictionary: cliFields))
        let page = try server.get("/")
        #expect(page.status == 200 && page.contentType?.hasPrefix("text/html") == true && page.body.contains("\"mode\":\"server\""))

        // Bad input: 400 (or 404 for an unknown id) with a JSON error that names the parameter.
        for (path, status, parameter) in [
            ("/api/near?lat=abc&lon=5&km=1", 400, "lat"),
            ("/api/near?lat=51&lon=5", 400, "km"),
            ("/api/near?lat=51&lon=5&km=-1", 400, "km"),
            ("/api/near?lat=51&lon=5&km=nan", 400, "km"),
            ("/api/near?lat=51&lon=181&km=1", 400, "lon"),
            ("/api/near?lon=5&km=1", 400, "lat"),
            ("/api/near?lat=51&lon=5&nearest=0", 400, "nearest"),
            ("/api/near?lat=51&lon=5&nearest=2.5", 400, "nearest"),
            ("/api/near?lat=51&lon=5&km=1&nearest=3", 400, "nearest"),
            ("/api/near?lat=51&lon=5&km=1&lang=e_1", 400, "lang"),
            ("/api/near?lat=51&lon=5&km=1&type=shop", 400, "type"),
            ("/api/near?lat=51&lat=52&lon=5&km=1", 400, "lat"),
            ("/api/near?lat=51&lon=5&km=1&radius=3", 400, "radius"),
            ("/api/bbox?minlat=60&minlon=0&maxlat=50&maxlon=1", 400, "minlat"),
            ("/api/bbox?minlat=1&minlon=0&maxlat=5", 400, "maxlon"),
            ("/api/search?q=", 400, "q"),
            ("/api/search", 400, "q"),
            ("/api/organizations/not-an-id", 400, "id"),
            ("/api/organizations/0000000000000000", 404, "id"),
            ("/api/stats?verbose=1", 400, "verbose"),
        ] {
            let answer = try server.get(path)
            let body = jsonObject(answer.body) as? [String: Any]
            #expect(answer.status == status, "\(path): \(answer.status) \(answer.body)")
            #expect(body?["parameter"] as? String == parameter && (body?["error"] as? String)?.isEmpty == false, "\(path): \(answer.body)")
            #expect(answer.contentType?.hasPrefix("application/json") == true)
        }
        #expect(try server.get("/api/near?lat=51&lon=5&km=1&x=" + String(repeating: "a", count: 3000)).status == 414)
        #expect(try server.get("/nowhere").status == 404)
        // No write endpoint: anything but GET and HEAD is refused.
        let post = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            for method in ["POST", "PUT", "DELETE"]:
                c.request(method, "/api/stats", body=b"{}")
                r = c.getresponse(); r.read(); print(method, r.status)
            c.request("GET", "/api/search?q=%ZZ")
            r = c.getresponse(); print("GET", r.status, r.read().decode())
            """], timeout: 30)
        #expect(post.text == "POST 405\nPUT 405\nDELETE 405\nGET 400 {\"error\":\"q has an invalid percent-encoding\",\"parameter\":\"q\"}\n\n",
                "\(post.text) \(post.stderr)")

        // One log line per request on stderr.
        let log = server.log
        #expect(log.contains("GET /api/near?lat=abc&lon=5&km=1 400 "), "\(log.suffix(2000))")
        #expect(log.contains("GET /api/stats 200 ") && log.contains("POST /api/stats 405 "))

        #expect(server.stop(SIGTERM), "stops on SIGTERM")
        #expect(server.process.terminationStatus == 0)
        #expect(server.log.hasSuffix("Stopped.\n"), "\(server.log.suffix(300))")

        let second = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)
        #expect(second.stop(SIGINT), "stops on SIGINT")
        #expect(second.process.terminationStatus == 0)
    }

    @Test("an id that is also another club's nickname: show and /api/organizations/{id} find the id's organization")
    func idBeatsNickname() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let alpha = Level1Builder.Entry(town: "Eindhoven", fullName: "Fotoclub Alpha", nickName: "alpha", latitude: 51.44, longitude: 5.47)
        let first = try home.write("first.level1.json", Level1Builder.level1(clubs: [alpha]))
        #expect(try cli.run(["import", first.path]).status == 0)
        let id = try #require(featureIDs(try cli.run(["show", "alpha", "--format", "geojson"]).stdout).first)
        // A second club whose nickname spells alpha's id, and whose full name contains it too.
        let impostor = Level1Builder.Entry(town: "Tilburg", fullName: "Club \(id)", nickName: id, latitude: 51.56, longitude: 5.09)
        let second = try home.write("second.level1.json", Level1Builder.level1(clubs: [alpha, impostor]))
        #expect(try cli.run(["import", second.path]).status == 0)

        let shown = try cli.run(["show", id, "--format", "geojson"])
        #expect(shown.status == 0 && featureIDs(shown.stdout) == [id], "\(shown.stderr)")
        // The impostor is still found by its full name.
        #expect(try cli.run(["show", "Club \(id)"]).stdout.contains("Tilburg"))

        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite")], environment: cli.environment)
        let answer = try server.get("/api/organizations/\(id)")
        #expect(answer.status == 200 && featureIDs(answer.body) == [id], "\(answer.status) \(answer.body)")
        #expect(jsonObject(answer.body) == jsonObject(shown.stdout))
        // An id that no organization has is a 404, even when a nickname spells it.
        let other = String(id.reversed())
        if other != id {
            #expect(try server.get("/api/organizations/\(other)").status == 404)
        }
    }

    @Test("host and port: flag over HUBGEO_PORT over the config file; a bad one is refused")
    func hostAndPort() throws {
        let home = try TestPaths.temporaryDirectory()
        let config = try home.write("config", "# hubgeo\nhost = 127.0.0.1\nport = 0\n")
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        cli.environment["HUBGEO_CONFIG"] = config.path
        cli.environment["HUBGEO_PORT"] = nil
        cli.environment["HUBGEO_HOST"] = nil
        #expect(try cli.run(["stats"]).status == 0, "the Nominatim settings accept the server's keys in the config file")
        let fromFile = try ServeProcess(arguments: [], environment: cli.environment)
        let answer = try fromFile.get("/api/stats")
        #expect(fromFile.port > 0 && answer.status == 200)
        _ = fromFile.stop()

        var bad = cli
        bad.environment["HUBGEO_PORT"] = "eighty"
        let refused = try bad.run(["serve"])
        #expect(refused.status == 1 && refused.stderr.contains("HUBGEO_PORT"), "\(refused.stderr)")
        let usage = try cli.run(["serve", "--port", "70000"])
        #expect(usage.status == 64, "\(usage.stderr)")
        let file = try home.write("bad-config", "port = x\n")
        var badFile = cli
        badFile.environment["HUBGEO_CONFIG"] = file.path
        let fileRefused = try badFile.run(["serve"])
        #expect(fileRefused.status == 1 && fileRefused.stderr.contains("bad-config:1"), "\(fileRefused.stderr)")
    }

    @Test("100,000 organizations: a whole-world bbox is truncated at the cap; an import alongside fails no request")
    func largeDatabase() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportMemoryTests.syntheticStore(count: 100_000, in: directory)
        let path = store.path
        let cli = CLIRunner(database: path, home: directory.url.path)
        let server = try ServeProcess(arguments: ["--db", path, "--max-features", "5000"], environment: cli.environment)

        let world = try server.get("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180")
        #expect(world.status == 200)
        let collection = jsonObject(world.body) as? [String: Any]
        #expect((collection?["features"] as? [Any])?.count == 5000)
        #expect(collection?["truncated"] as? Bool == true)
        let small = try server.get("/api/bbox?minlat=10&minlon=10&maxlat=11&maxlon=11")
        #expect(jsonObject(small.body).flatMap { ($0 as? [String: Any])?["truncated"] } == nil, "an answer under the cap is not marked")
        #expect(featureIDs(small.body) == featureIDs(try cli.run(["export", "geojson", "--bbox", "10", "10", "11", "11"]).stdout))

        // Clients query while `hubgeo import` replaces the 100,000 organizations with the built-in data.
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var statuses: [Int: Int] = [:]
            var failures: [String] = []
            var stop = false
        }
        let tally = Tally()
        let group = DispatchGroup()
        for client in 0..<3 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var index = 0
                while !tally.lock.withLock({ tally.stop }) {
                    index += 1
                    let path = client == 2 ? "/api/bbox?minlat=50&minlon=0&maxlat=54&maxlon=8"
                        : "/api/near?lat=\(51 + Double(index % 7))&lon=\(5 - Double(index % 11))&km=300"
                    do {
                        let answer = try server.get(path)
                        tally.lock.withLock { tally.statuses[answer.status, default: 0] += 1 }
                    } catch {
                        tally.lock.withLock { tally.failures.append("\(error)") }
                    }
                }
            }
        }
        func answered() -> Int { tally.lock.withLock { tally.statuses.values.reduce(0, +) + tally.failures.count } }
        // The clients are being answered before the import starts, and again after it ended.
        try Waiting.until("3 answers to the clients before the import", timeout: 60) { answered() >= 3 }
        let imported = try cli.run(["import"], timeout: 240)
        let afterImport = answered()
        try Waiting.until("3 more answers after the import", timeout: 60) { answered() >= afterImport + 3 }
        tally.lock.withLock { tally.stop = true }
        group.wait()
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("removed") || imported.stdout.contains("100000") || imported.stdout.contains("100,000"), "\(imported.stdout)")
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        #expect(tally.statuses.keys.sorted() == [200], "\(tally.statuses)")
        #expect(tally.statuses[200, default: 0] >= 20, "\(tally.statuses)")
        #expect(featureIDs(try server.get("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180").body).count == 131, "the server sees the new data")
        _ = server.stop()

        // A query over its time limit gets a 503 with a JSON error; the server goes on serving.
        let scratch = try TestPaths.temporaryDirectory()
        let synthetic = try ExportMemoryTests.syntheticStore(count: 100_000, in: scratch)
        let hurried = try ServeProcess(arguments: ["--db", synthetic.path, "--timeout", "0.001"], environment: cli.environment)
        let late = try hurried.get("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180")
        #expect(late.status == 503 && (jsonObject(late.body) as? [String: Any])?["error"] != nil, "\(late.status) \(late.body.prefix(200))")
        #expect(try hurried.get("/nowhere").status == 404)
        _ = hurried.stop()
    }
}
