import Foundation
import HubGeoTestSupport
import Testing

/// The validators a server sends (`ETag`, `Last-Modified`) go back to it in request headers: one
/// holding a control character is never sent back (the request goes out unconditional instead),
/// so a hostile or broken server cannot make every later import of the document fail.
@Suite("Document cache: validators that cannot be sent back")
struct CachedValidatorTests {
    @Test func anETagWithAControlCharacterIsNotSentBackAndTheNextImportWorks() throws {
        let level1 = Level1Builder.level1(clubs: [
            .init(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46),
        ])
        let server = try LoopbackServer(script: [
            "/root.level1.json": [.init(headers: ["ETag": "\"a\u{01}b\"", "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT\u{7F}"],
                                        body: level1)],
            "/fgWaalre.level2.json": [.init(status: 404)],
        ])
        let home = try TestPaths.temporaryDirectory()
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        cli.environment["HUBGEO_CONFIG"] = "/nonexistent"
        let root = server.url("/root.level1.json").absoluteString
        let first = try cli.run(["import", root])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try cli.run(["import", root])
        #expect(second.status == 0, "\(second.stderr)")
        let requests = try server.requests(path: "/root.level1.json")
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { !$0.isConditional }, "\(requests.map(\.headers))")
    }
}
