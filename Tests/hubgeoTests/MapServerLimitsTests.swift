import Foundation
import GRDB
@testable import HubGeoDatabase
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hubgeo serve` against what a hostile client, a careless operator or a broken disk bring:
/// slow queries, odd methods and parameters, a busy port, a corrupted database.
@Suite("hubgeo serve: limits and refusals", .serialized)
struct MapServerLimitsTests {
    /// A database of the built-in data, and a CLI on it.
    static func builtIn(_ home: TemporaryDirectory) throws -> CLIRunner {
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let stats = try cli.run(["stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        return cli
    }

    /// Runs a Python 3 script (the standard library's HTTP client and sockets) and returns its stdout.
    static func python(_ script: String) throws -> String {
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    @Test("a query past --timeout is interrupted: its 503 comes long before the query could end, and slow requests hold up no other")
    func timeoutInterruptsTheQuery() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportMemoryTests.syntheticStore(count: 150_000, in: directory)
        let cli = CLIRunner(database: store.path, home: directory.url.path)
        // Every organization within 20,000 km: a geodesic distance for each of the 150,000.
        let slow = "/api/near?lat=0&lon=0&km=20000"
        let clock = ContinuousClock()
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        // The whole query, uninterrupted, on this machine now.
        let patient = try ServeProcess(arguments: ["--db", store.path, "--timeout", "60"], environment: cli.environment)
        var whole = 0.0
        for _ in 0..<2 {
            let start = clock.now
            let answer = try patient.get(slow)
            #expect(answer.status == 200)
            whole = max(whole, seconds(clock.now - start))
        }
        _ = patient.stop()

        let hurried = try ServeProcess(arguments: ["--db", store.path, "--timeout", "0.1"], environment: cli.environment)
        let start = clock.now
        let late = try hurried.get(slow)
        let lateSeconds = seconds(clock.now - start)
        #expect(late.status == 503 && (jsonObject(late.body) as? [String: Any])?["error"] != nil, "\(late.status) \(late.body.prefix(200))")
        #expect(lateSeconds < whole / 2, "the 503 came after \(lateSeconds) s; the whole query takes \(whole) s")

        // A dozen slow requests at once, and a quick one once their time is up (before, the slow
        // ones kept the query threads for seconds, and the quick one waited for them).
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var statuses: [Int] = []
        }
        let tally = Tally()
        let group = DispatchGroup()
        for _ in 0..<12 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let status = (try? hurried.get(slow).status) ?? -1
                tally.lock.withLock { tally.statuses.append(status) }
            }
        }
        // The quick request once the slow ones' time is up: when all 12 have their answer.
        try Waiting.until("the 12 slow requests' answers", timeout: 60) { tally.lock.withLock { tally.statuses.count == 12 } }
        let quickStart = clock.now
        let quick = try hurried.get("/api/bbox?minlat=10&minlon=10&maxlat=11&maxlon=11")
        let quickSeconds = seconds(clock.now - quickStart)
        group.wait()
        #expect(quick.status == 200, "\(quick.body.prefix(200))")
        #expect(tally.statuses == Array(repeating: 503, count: 12), "\(tally.statuses)")
        #expect(quickSeconds < whole, "a quick request took \(quickSeconds) s behind 12 slow ones; one slow query takes \(whole) s")
        _ = hurried.stop()
    }

    @Test("--max-features is bounded like every count: a usage error naming it")
    func maxFeaturesIsBounded() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        for value in ["9223372036854775807", "1000000001", "0"] {
            let refused = try cli.run(["serve", "--port", "0", "--max-features", value], timeout: 20)
            #expect(refused.status == 64 && refused.stderr.contains("--max-features"), "\(value): \(refused.status) \(refused.stderr)")
        }
        let server = try ServeProcess(arguments: ["--max-features", "1000000000"], environment: cli.environment)
        let answer = try server.get("/api/near?lat=51.4&lon=5.4&km=20")
        #expect(answer.status == 200 && featureIDs(answer.body).count > 20, "\(answer.status)")
        _ = server.stop()
    }

    @Test("HEAD answers as GET without a body; CONNECT gets a 405 with a JSON body and the connection closed")
    func headAndConnect() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        // HEAD then GET on one connection: the GET's answer parses only if HEAD sent no body.
        let head = try Self.python("""
            import http.client, json
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=20)
            for path in ["/", "/api/stats", "/api/near?lat=51.4&lon=5.4&km=20", "/api/organizations/55fc03ca02c74e5d", "/api/search?q=", "/nowhere"]:
                c.request("HEAD", path)
                r = c.getresponse(); body = r.read()
                headers = (r.status, r.getheader("Content-Type"), r.getheader("Content-Length"), len(body))
                c.request("GET", path)
                g = c.getresponse(); got = g.read()
                print(json.dumps([path, headers[0], g.status, headers[1] == g.getheader("Content-Type"),
                                  headers[2] == str(len(got)), headers[3]]))
            """)
        let lines = head.split(separator: "\n").compactMap { jsonObject(String($0)) as? [Any] }
        #expect(lines.count == 6, "\(head)")
        for line in lines {
            let path = line[0] as? String ?? ""
            let expected = path == "/nowhere" ? 404 : path.hasPrefix("/api/search") ? 400 : 200
            #expect(line[1] as? Int == expected && line[2] as? Int == expected, "\(line)")
            #expect(line[3] as? Bool == true && line[4] as? Bool == true, "HEAD's headers as GET's: \(line)")
            #expect(line[5] as? Int == 0, "no body: \(line)")
        }

        // CONNECT: read everything until the server closes (or 10 s pass).
        let connect = try Self.python("""
            import socket, json, time
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=10)
            s.sendall(b"CONNECT example.org:443 HTTP/1.1\\r\\nHost: example.org:443\\r\\n\\r\\n")
            data, closed = b"", False
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        closed = True
                        break
                    data += chunk
            except socket.timeout:
                pass
            head, _, body = data.partition(b"\\r\\n\\r\\n")
            print(json.dumps({"closed": closed, "head": head.decode("latin-1"), "body": body.decode("utf-8", "replace")}))
            """)
        let report = try #require(jsonObject(connect) as? [String: Any], "\(connect)")
        let responseHead = report["head"] as? String ?? ""
        #expect(responseHead.hasPrefix("HTTP/1.1 405"), "\(responseHead)")
        #expect(responseHead.contains("Allow: GET, HEAD") && responseHead.contains("Content-Type: application/json"), "\(responseHead)")
        let error = jsonObject(report["body"] as? String ?? "") as? [String: Any]
        #expect((error?["error"] as? String)?.contains("GET") == true, "\(report)")
        #expect(report["closed"] as? Bool == true, "the server closes the connection after refusing CONNECT: \(report)")
        #expect(try server.get("/api/stats").status == 200, "and goes on serving")
        #expect(server.log.contains("CONNECT example.org:443 405"), "\(server.log.suffix(500))")
        _ = server.stop()
    }

    @Test("RFC 9112 §3.2 over a socket: no Host in HTTP/1.1 (HTTP/1.0 needs none, and its connection closes after the answer), two Host headers, a malformed Host, or a Host that differs from an absolute target is a 400")
    func hostRules() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        let port = server.port
        let report = try Self.python("""
            import socket, json
            def ask(request):
                s = socket.create_connection(("127.0.0.1", \(port)), timeout=20)
                s.sendall(request.encode("latin-1"))
                data = b""
                while True:  # Connection: close: the answer ends with the connection
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                s.close()
                head, _, body = data.partition(b"\\r\\n\\r\\n")
                lines = head.decode("latin-1").split("\\r\\n")
                headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
                return (int(lines[0].split(" ")[1]) if data else 0), headers, body.decode("utf-8", "replace")
            here = "127.0.0.1:\(port)"
            cases = {
                "two": "GET /tiles.json HTTP/1.1\\r\\nHost: " + here + "\\r\\nHost: evil.example\\r\\nConnection: close\\r\\n\\r\\n",
                "malformed": "GET /tiles.json HTTP/1.1\\r\\nHost: localhost:99999\\r\\nConnection: close\\r\\n\\r\\n",
                "absoluteOther": "GET http://evil.example/tiles.json HTTP/1.1\\r\\nHost: " + here + "\\r\\nConnection: close\\r\\n\\r\\n",
                "absoluteSame": "GET http://" + here + "/tiles.json HTTP/1.1\\r\\nHost: " + here + "\\r\\nConnection: close\\r\\n\\r\\n",
                "plain": "GET /tiles.json HTTP/1.1\\r\\nHost: " + here + "\\r\\nConnection: close\\r\\n\\r\\n",
                "missing": "GET /tiles.json HTTP/1.1\\r\\nConnection: close\\r\\n\\r\\n",
                "missingHTTP10": "GET /api/stats HTTP/1.0\\r\\n\\r\\n",
            }
            statuses = {name: ask(request)[0] for name, request in cases.items()}
            # /tiles.json names the host it was asked on; its tag covers that host, so another host's tag earns no 304.
            first = ask("GET /tiles.json HTTP/1.1\\r\\nHost: localhost:\(port)\\r\\nConnection: close\\r\\n\\r\\n")
            tag = first[1].get("etag")
            second = ask("GET /tiles.json HTTP/1.1\\r\\nHost: " + here + "\\r\\nIf-None-Match: " + tag + "\\r\\nConnection: close\\r\\n\\r\\n")
            missing = ask(cases["missing"])[2]
            print(json.dumps({"statuses": statuses, "missing": missing, "first": [first[0], first[1].get("vary"), first[2]],
                              "second": [second[0], second[1].get("etag") != tag, second[2]]}))
            """)
        let result = try #require(jsonObject(report) as? [String: Any], "\(report)")
        let statuses = result["statuses"] as? [String: Int] ?? [:]
        #expect(statuses == ["two": 400, "malformed": 400, "absoluteOther": 400, "absoluteSame": 200, "plain": 200,
                             "missing": 400, "missingHTTP10": 200], "\(statuses)")
        #expect((result["missing"] as? String ?? "").contains("an HTTP/1.1 request names its host in a Host header"), "\(result)")
        let first = result["first"] as? [Any] ?? []
        #expect(first.first as? Int == 200 && first[1] as? String == "Accept-Encoding, Host", "\(first)")
        #expect((first[2] as? String ?? "").contains("\"http://localhost:\(port)/tiles/{z}/{x}/{y}.mvt\""), "\(first)")
        let second = result["second"] as? [Any] ?? []
        #expect(second.first as? Int == 200 && second[1] as? Bool == true, "\(second)")
        #expect((second[2] as? String ?? "").contains("\"http://127.0.0.1:\(port)/tiles/"), "\(second)")
        _ = server.stop()
    }

    @Test("serve starts without Leaflet: the API and tiles answer, / is a 503 naming the packages")
    func withoutLeaflet() throws {
        let home = try TestPaths.temporaryDirectory()
        var cli = try Self.builtIn(home)
        let empty = home.path("no-leaflet")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        cli.environment["HUBGEO_LEAFLET_DIR"] = empty
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        let page = try server.get("/")
        #expect(page.status == 503 && page.body.contains("libjs-leaflet"), "\(page)")
        #expect(try server.get("/api/stats").status == 200)
        #expect(try server.get("/tiles.json").status == 200)
        #expect(server.log.contains("warning: cannot read \(empty)/"), "\(server.log)")
        _ = server.stop()
        // `hubgeo map` keeps its error.
        let map = try cli.run(["map", "-o", home.path("map.html")])
        #expect(map.status == 1 && map.stderr.contains("libjs-leaflet"), "\(map.stderr)")
    }

    @Test("a control character in a parameter is a 400 naming the parameter")
    func controlCharacters() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        for (path, parameter) in [
            ("/api/search?q=%00", "q"),
            ("/api/search?q=foto%00", "q"),
            ("/api/search?q=foto%1B%5D0;title%07", "q"),
            ("/api/search?q=foto%C2%85", "q"),
            ("/api/near?lat=51.4%00garbage&lon=5.4&km=20", "lat"),
            ("/api/near?lat=51.4&lon=5.4%0A&km=20", "lon"),
            ("/api/near?lat=51.4&lon=5.4&nearest=3%00", "nearest"),
            ("/api/bbox?minlat=50&minlon=3&maxlat=54&maxlon=8%7F", "maxlon"),
            ("/api/near?lat=51.4&lon=5.4&km=20&type=club%00", "type"),
        ] {
            let answer = try server.get(path)
            let body = jsonObject(answer.body) as? [String: Any]
            #expect(answer.status == 400 && body?["parameter"] as? String == parameter, "\(path): \(answer.status) \(answer.body.prefix(200))")
            #expect((body?["error"] as? String)?.contains("control character") == true, "\(path): \(answer.body.prefix(200))")
        }
        #expect(try server.get("/api/search?q=foto%20club").status == 200, "a space is text")
        _ = server.stop()
    }

    @Test("a body sent in chunks is a 413 as one with a Content-Length; numbers in parameters are decimal only")
    func chunkedBodyAndDecimalNumbers() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let server = try ServeProcess(arguments: [], environment: cli.environment)
        let answers = try Self.python("""
            import http.client, json
            out = []
            for headers, body in [({"Transfer-Encoding": "chunked"}, b"5\\r\\nhello\\r\\n0\\r\\n\\r\\n"), ({"Content-Length": "5"}, b"hello")]:
                c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=20)
                c.putrequest("GET", "/api/stats")
                for k, v in headers.items(): c.putheader(k, v)
                c.endheaders()
                c.send(body)
                r = c.getresponse()
                out.append([r.status, r.read().decode()])
                c.close()
            print(json.dumps(out))
            """)
        let statuses = (jsonObject(answers) as? [[Any]])?.map { $0[0] as? Int }
        #expect(statuses == [413, 413], "\(answers)")
        for path in ["/api/clusters?bbox=0x10,0,10,10&zoom=1", "/api/near?lat=0x1p4&lon=5&km=20", "/api/near?lat=51.4&lon=5.4&km=1e1000",
                     "/api/near?lat=51.4&lon=5.4&km=inf", "/api/bbox?minlat=50&minlon=3&maxlat=54&maxlon=0x8"] {
            let answer = try server.get(path)
            #expect(answer.status == 400 && answer.body.contains("is not a number"), "\(path): \(answer.status) \(answer.body.prefix(200))")
        }
        #expect(try server.get("/api/near?lat=51.4&lon=5.4&km=2e1").status == 200, "an exponent is decimal notation")
        _ = server.stop()
    }

    @Test("in GitHub Actions the request log holds no workflow command, whatever a client sends")
    func requestLogInActions() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        var environment = cli.environment
        environment["GITHUB_ACTIONS"] = "true"
        let server = try ServeProcess(arguments: [], environment: environment)
        _ = try Self.python("""
            import socket
            for target in [b"/api/search?q=##[add-mask]x", b"/::error title=spoofed::x", b"/api/organizations/##[stop-commands]y"]:
                s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=10)
                s.sendall(b"GET " + target + b" HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
                while s.recv(65536): pass
            print("sent")
            """)
        #expect(try server.get("/api/stats").status == 200)
        let log = server.log
        #expect(log.contains("%23%23[add-mask]x") && log.contains("%23%23[stop-commands]y"), "\(log.suffix(600))")
        #expect(!log.contains("##["), "\(log.suffix(600))")
        _ = server.stop()
    }

    @Test("a limit of open files too low to serve: said in words, with what to do, exit 1")
    func openFileLimit() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        for limit in [12, 20, 40] {
            let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -n \(limit) && exec \"$0\" serve --port 0",
                                                                                try CLIRunner.binary().path],
                                               environment: cli.environment, timeout: 30)
            #expect(result.status == 1, "\(limit): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("may open only \(limit) files") && result.stderr.contains("ulimit -n 1024"), "\(result.stderr)")
            #expect(!result.stderr.contains("errno"), "\(result.stderr)")
        }
    }

    @Test("a port in use: the address, the port and what to do, exit 1")
    func portInUse() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let first = try ServeProcess(arguments: [], environment: cli.environment)
        let second = try cli.run(["serve", "--port", String(first.port)], timeout: 30)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("127.0.0.1:\(first.port)") && second.stderr.contains("already in use")
                && second.stderr.contains("--port"), "\(second.stderr)")
        #expect(!second.stderr.contains("bind(descriptor"), "\(second.stderr)")
        _ = first.stop()
    }

    @Test("a database that breaks under serve: a failure is a 500 without paths or SQL, a missing id still a 404")
    func corruptedDatabase() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        // Where the members' table lies in the file (nothing the server's start reads).
        let path = home.path("hub.sqlite")
        let (pages, pageSize) = try {
            let store = try OrganizationStore(path: path)
            defer { try? store.checkpointAndClose() }
            return try store.database.read { db in
                (try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'organization_member'"),
                 try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
            }
        }()
        #expect(!pages.isEmpty)
        let server = try ServeProcess(arguments: ["--db", path], environment: cli.environment)
        // The disk garbles those pages while the server runs.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        for page in pages {
            try file.seek(toOffset: UInt64((page - 1) * pageSize))
            try file.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        }
        try file.close()

        let broken = try server.get("/api/organizations/55fc03ca02c74e5d")
        let body = jsonObject(broken.body) as? [String: Any]
        #expect(broken.status == 500 && broken.contentType?.hasPrefix("application/json") == true, "\(broken.status) \(broken.body)")
        #expect((body?["error"] as? String)?.isEmpty == false, "\(broken.body)")
        #expect(!broken.body.contains(home.url.path) && !broken.body.contains("hub.sqlite") && !broken.body.contains("SELECT"),
                "\(broken.body)")
        #expect(server.log.contains("malformed"), "the operator sees the cause on stderr: \(server.log.suffix(500))")
        let missing = try server.get("/api/organizations/0000000000000000")
        #expect(missing.status == 404, "\(missing.status) \(missing.body)")
        _ = server.stop()
    }

    @Test("--host off this machine warns that the API is reachable from other machines; /api/stats names no path")
    func exposureWarningAndStatsPath() throws {
        let home = try TestPaths.temporaryDirectory()
        let cli = try Self.builtIn(home)
        let open = try ServeProcess(arguments: ["--host", "0.0.0.0"], environment: cli.environment)
        let warnings = open.log.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1 && warnings[0].contains("other machines"), "\(open.log)")
        let stats = try open.get("/api/stats")
        #expect(stats.status == 200 && !stats.body.contains(home.url.path) && !stats.body.contains("hub.sqlite"), "\(stats.body)")
        let cliStats = try cli.run(["stats", "--format", "json"])
        #expect(cliStats.stdout.contains(home.path("hub.sqlite")), "the CLI still shows the path")
        var apiFields = jsonObject(stats.body) as? [String: Any] ?? [:]
        var cliFields = jsonObject(cliStats.stdout) as? [String: Any] ?? [:]
        cliFields["databasePath"] = nil
        apiFields["databasePath"] = nil
        #expect(NSDictionary(dictionary: apiFields) == NSDictionary(dictionary: cliFields))
        _ = open.stop()

        for host in ["127.0.0.1", "localhost"] {
            let local = try ServeProcess(arguments: ["--host", host], environment: cli.environment)
            #expect(!local.log.contains("warning"), "\(host): \(local.log)")
            _ = local.stop()
        }
    }
}
