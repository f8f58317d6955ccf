import Foundation
@testable import HubGeoHTTP
import HubGeoTestSupport
import Testing

/// Real libcurl over real HTTP against `loopback_server.py` on 127.0.0.1.
/// Each test starts its own short-lived server, so the tests can run in parallel.
@Suite("CurlClient")
struct CurlClientTests {
    static let userAgent = "hubgeo-tests/1.0 (+https://example.org/hubgeo)"

    func client(totalTimeout: TimeInterval = 10, maxBodyBytes: Int = 1 << 20,
                maxRedirects: Int = 5) -> CurlClient {
        CurlClient(configuration: CurlClientConfiguration(
            userAgent: Self.userAgent, connectTimeout: 5, totalTimeout: totalTimeout,
            maxBodyBytes: maxBodyBytes, maxRedirects: maxRedirects))
    }

    /// Runs `body` and returns the FetchError it threw (nil when it did not throw).
    func httpError(_ body: () throws(FetchError) -> FetchedResponse) -> FetchError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func okBodyHeadersAndUserAgent() throws {
        let server = try LoopbackServer(script: ["/hello": [LoopbackServer.Response(
            headers: ["Content-Type": "application/json", "Retry-After": "7", "X-Twice": "a"],
            body: #"{"hello":"world"}"#)]], lifetime: 20)
        defer { server.stop() }

        let response = try client().get(server.url("/hello?q=1"), headers: [("X-Test", "yes")])

        #expect(response.status == 200)
        #expect(response.isSuccess)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("retry-after") == "7")
        #expect(response.headers["content-length"] == "17")
        #expect(response.url == server.url("/hello?q=1"))

        let requests = try server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.path == "/hello")
        #expect(requests.first?.query == "q=1")
        #expect(requests.first?.headers["user-agent"] == Self.userAgent)
        #expect(requests.first?.headers["x-test"] == "yes")
    }

    @Test func staticRootAnd404IsAResponse() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("hubgeo-http-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("club data\n".utf8).write(to: root.appendingPathComponent("club.json"))
        let server = try LoopbackServer(root: root, lifetime: 20)
        defer { server.stop() }
        let client = client()

        let found = try client.get(server.url("/club.json"))
        #expect(found.status == 200)
        #expect(found.body == Data("club data\n".utf8))
        #expect(found.header("content-type") == "application/json")

        let missing = try client.get(server.url("/missing.json"))
        #expect(missing.status == 404)
        #expect(!missing.isSuccess)
    }

    @Test func statusesComeBackInOrderAndHeadersAreFromTheFinalResponse() throws {
        let server = try LoopbackServer(script: [
            "/limited": [
                LoopbackServer.Response(status: 429, headers: ["Retry-After": "2"], body: "slow down"),
                LoopbackServer.Response(status: 200, body: "ok"),
            ],
            "/moved": [LoopbackServer.Response(headers: ["X-From": "moved"], redirectTo: "/limited")],
        ], lifetime: 20)
        defer { server.stop() }
        let client = client()

        let first = try client.get(server.url("/limited"))
        #expect(first.status == 429)
        #expect(first.header("Retry-After") == "2")

        // Redirected: 302 headers (Location, X-From) must not leak into the result.
        let second = try client.get(server.url("/moved"))
        #expect(second.status == 200)
        #expect(String(decoding: second.body, as: UTF8.self) == "ok")
        #expect(second.url == server.url("/limited"))
        #expect(second.header("location") == nil)
        #expect(second.header("x-from") == nil)
        #expect(second.header("retry-after") == nil)
    }

    @Test func gzipBodyIsDecoded() throws {
        let text = String(repeating: "Fotogroep de Gender, Eindhoven. ", count: 200)
        let server = try LoopbackServer(script: ["/zipped": [LoopbackServer.Response(body: text, gzip: true)]],
                                        lifetime: 20)
        defer { server.stop() }

        let response = try client().get(server.url("/zipped"))

        #expect(response.header("content-encoding") == "gzip")
        #expect(Int(response.header("content-length") ?? "") ?? .max < text.utf8.count)
        #expect(String(decoding: response.body, as: UTF8.self) == text)
        #expect(try server.requests().first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test(arguments: [false, true])
    func bodyOverTheCapIsRejected(chunked: Bool) throws {
        // Content-Length known: refused up front; chunked: aborted by the write callback.
        let server = try LoopbackServer(lifetime: 20)
        defer { server.stop() }
        let client = client(maxBodyBytes: 100_000)
        let url = server.url("/__big?bytes=300000\(chunked ? "&chunked=1" : "")")

        #expect(httpError { () throws(FetchError) in try client.get(url) } == .bodyTooLarge(url, limit: 100_000))

        // Exactly at the limit is fine, and the client still works afterwards.
        let atLimit = try client.get(server.url("/__big?bytes=100000\(chunked ? "&chunked=1" : "")"))
        #expect(atLimit.body.count == 100_000)
    }

    @Test func redirectsAreFollowedUpToTheCap() throws {
        let server = try LoopbackServer(lifetime: 20)
        defer { server.stop() }
        let client = client(maxRedirects: 3)

        let followed = try client.get(server.url("/__redirect?n=3"))
        #expect(followed.status == 200)
        #expect(followed.url == server.url("/__redirect?n=0"))

        let url = server.url("/__redirect?n=4")
        let error = httpError { () throws(FetchError) in try client.get(url) }
        // The refusal names the hop that redirected once too often and where it pointed.
        #expect(error == .tooManyRedirects(url, limit: 3, from: server.url("/__redirect?n=1"),
                                           to: server.url("/__redirect?n=0").absoluteString))
        #expect(error?.localizedDescription.contains("from \(server.url("/__redirect?n=1").absoluteString) to "
            + server.url("/__redirect?n=0").absoluteString) == true, "\(String(describing: error?.localizedDescription))")
        #expect(error?.isTransient == false)
    }

    @Test func redirectToAnotherSchemeIsRefused() throws {
        let server = try LoopbackServer(script: ["/ftp": [LoopbackServer.Response(redirectTo: "ftp://127.0.0.1/file")],
                                                 "/file": [LoopbackServer.Response(redirectTo: "file:///etc/passwd")]],
                                        lifetime: 20)
        defer { server.stop() }
        let client = client()
        for (path, target) in [("/ftp", "ftp://127.0.0.1/file"), ("/file", "file:///etc/passwd")] {
            let url = server.url(path)
            let error = httpError { () throws(FetchError) in try client.get(url) }
            #expect(error == .redirectRefused(url, from: url, to: target))
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("from \(url.absoluteString) to \(target)") && message.contains("only http and https"), "\(message)")
            #expect(error?.isTransient == false)
        }
    }

    @Test func aRefusedRedirectAfterAHopNamesTheHopAndTheTarget() throws {
        let server = try LoopbackServer(script: ["/hop": [LoopbackServer.Response(redirectTo: "/ftp")],
                                                 "/ftp": [LoopbackServer.Response(redirectTo: "ftp://127.0.0.1/file")]],
                                        lifetime: 20)
        defer { server.stop() }
        let url = server.url("/hop")
        let error = httpError { () throws(FetchError) in try client().get(url) }
        #expect(error == .redirectRefused(url, from: server.url("/ftp"), to: "ftp://127.0.0.1/file"))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("from \(server.url("/ftp").absoluteString) to ftp://127.0.0.1/file")
            && message.contains("reached from \(url.absoluteString)"), "\(message)")
        #expect(try server.requests().map(\.path) == ["/hop", "/ftp"])
    }

    @Test func eachRequestAfterTheFirstPassesTheFollowUpGate() throws {
        // A kept-alive connection that the server resets: libcurl resends the request at once on a
        // fresh connection. The gate sees that resend (and redirects), so a caller can pace and count them.
        let server = try LoopbackServer(script: ["/a": [LoopbackServer.Response(body: "a")],
                                                 "/b": [LoopbackServer.Response(action: .reset), LoopbackServer.Response(body: "b")]],
                                        lifetime: 20)
        defer { server.stop() }
        let client = client()
        var followUps = 0
        #expect(try client.get(server.url("/a"), beforeFollowUp: { followUps += 1; return true }).body == Data("a".utf8))
        #expect(followUps == 0)
        #expect(try client.get(server.url("/b"), beforeFollowUp: { followUps += 1; return true }).body == Data("b".utf8))
        #expect(followUps == 1)
        #expect(try server.requests().map(\.path) == ["/a", "/b", "/b"])
        #expect(try client.get(server.url("/__redirect?n=2"), beforeFollowUp: { followUps += 1; return true }).status == 200)
        #expect(followUps == 3)

        // Refused: the fetch stops before the resend goes out.
        let refused = httpError { () throws(FetchError) in try client.get(server.url("/__redirect?n=1"), beforeFollowUp: { false }) }
        guard case .failed? = refused else { Issue.record("expected a stop, got \(String(describing: refused))"); return }
        #expect(try server.requests().filter { $0.query == "n=0" }.count == 1, "only the earlier fetch reached n=0")
    }

    @Test func hangTimesOutQuickly() throws {
        let server = try LoopbackServer(script: ["*": [.action(.hang)]], lifetime: 20)
        defer { server.stop() }
        let client = client(totalTimeout: 1)
        let url = server.url("/slow")

        let start = Date()
        let error = httpError { () throws(FetchError) in try client.get(url) }
        let elapsed = Date().timeIntervalSince(start)

        #expect(error == .timedOut(url, seconds: 1))
        #expect(error?.isTransient == true)
        #expect(elapsed >= 0.9)
        #expect(elapsed < 5)
    }

    @Test(arguments: [LoopbackServer.Response.Action.reset, .truncate])
    func brokenConnectionIsATransferError(action: LoopbackServer.Response.Action) throws {
        let server = try LoopbackServer(script: ["/broken": [LoopbackServer.Response(body: "partial", action: action)],
                                                 "/fine": [LoopbackServer.Response(body: "fine")]],
                                        lifetime: 20)
        defer { server.stop() }
        let client = client()
        let url = server.url("/broken")

        let error = httpError { () throws(FetchError) in try client.get(url) }
        guard case .transfer(let failedURL, let detail)? = error else {
            Issue.record("expected a transfer error, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
        #expect(!detail.isEmpty)
        #expect(error?.isTransient == true)
        #expect(error?.localizedDescription.contains(url.absoluteString) == true)

        // The same client recovers on a fresh connection.
        #expect(try client.get(server.url("/fine")).body == Data("fine".utf8))
    }

    @Test(arguments: ["ftp://127.0.0.1/data.json", "file:///etc/hostname", "mailto:club@example.org"])
    func nonHTTPSchemesAreRejectedBeforeSending(_ string: String) throws {
        let server = try LoopbackServer(lifetime: 20)
        defer { server.stop() }
        let url = try #require(URL(string: string))
        let error = httpError { () throws(FetchError) in try client().get(url) }
        #expect(error == .unsupportedScheme(url))
        #expect(error?.isTransient == false)
        #expect(try server.requests().isEmpty)
    }

    @Test func closedPortCannotConnect() throws {
        let closed = try RefusingPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/nothing"))
        let error = httpError { () throws(FetchError) in try client().get(url) }
        guard case .couldNotConnect(let failedURL, _)? = error else {
            Issue.record("expected couldNotConnect, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
        #expect(error?.isTransient == true)
    }

    @Test func oneClientReusesItsConnection() throws {
        let server = try LoopbackServer(script: ["*": [LoopbackServer.Response(body: "again")]], lifetime: 20)
        defer { server.stop() }
        let client = client()

        for index in 0..<5 {
            let response = try client.get(server.url("/item/\(index)"))
            #expect(response.status == 200)
            #expect(response.body == Data("again".utf8))
        }
        let missing = try client.get(server.url("/__big?bytes=0"))
        #expect(missing.body.isEmpty)

        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/item/0", "/item/1", "/item/2", "/item/3", "/item/4", "/__big"])
        #expect(Set(requests.map(\.clientPort)).count == 1, "all requests should share one TCP connection")
        #expect(requests.allSatisfy { $0.headers["user-agent"] == Self.userAgent })
    }

    @Test func invalidHeadersAreRejected() throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/x"))
        let client = client()
        #expect(httpError { () throws(FetchError) in try client.get(url, headers: [("X-Bad", "a\r\nInjected: 1")]) }
            == .invalidHeader(url, name: "X-Bad"))
        #expect(httpError { () throws(FetchError) in try client.get(url, headers: [("Bad Name", "a")]) }
            == .invalidHeader(url, name: "Bad Name"))
    }

    @Test func errorMessagesNameTheURL() throws {
        let url = try #require(URL(string: "https://nominatim.example.org/search?q=Eindhoven"))
        let errors: [FetchError] = [
            .unsupportedScheme(url), .timedOut(url, seconds: 1.5), .couldNotConnect(url, "refused"),
            .couldNotResolve(url), .bodyTooLarge(url, limit: 10), .tooManyRedirects(url, limit: 5),
            .transfer(url, "reset"), .tls(url, "bad cert"), .invalidHeader(url, name: "X"), .failed(url, "?"),
        ]
        for error in errors {
            #expect(error.url == url)
            #expect(error.localizedDescription.contains(url.absoluteString), "\(error)")
        }
        #expect(FetchError.timedOut(url, seconds: 30).localizedDescription.contains("30 s"))
        #expect(errors.filter(\.isTransient).count == 4)
    }
}
