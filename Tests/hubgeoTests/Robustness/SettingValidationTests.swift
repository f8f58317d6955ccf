import Foundation
@testable import HubGeoHTTP
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// Every setting is checked the same way, whatever its source (flag, environment variable, config
/// file line), and a bad one is an error naming that source: never ignored, never sent on the wire.
@Suite("Settings: every value checked, whatever its source")
struct SettingValidationTests {
    let home: TemporaryDirectory
    let cli: CLIRunner

    init() throws {
        home = try TestPaths.temporaryDirectory()
        var cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        for name in cli.environment.keys where name.hasPrefix("HUBGEO_") { cli.environment[name] = nil }
        cli.environment["HUBGEO_DB"] = home.path("hub.sqlite")
        cli.environment["HUBGEO_CONFIG"] = "/nonexistent"
        self.cli = cli
    }

    struct BadValue: CustomTestStringConvertible, Sendable {
        var variable: String
        var value: String
        var arguments: [String]
        var testDescription: String { "\(variable)=\(value) \(arguments.first ?? "")" }
    }

    /// Each variable hubgeo reads, with values that are not numbers, not finite, or out of range.
    static let badValues: [BadValue] = [
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "abc", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "inf", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "nan", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "0", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "-1", arguments: ["validate"]),
        .init(variable: "HUBGEO_HTTP_TIMEOUT", value: "1e300", arguments: ["validate"]),
        .init(variable: "HUBGEO_HTTP_CONNECT_TIMEOUT", value: "abc", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_CONNECT_TIMEOUT", value: "3601", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_MAX_BYTES", value: "-1", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_MAX_BYTES", value: "abc", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_MAX_BYTES", value: "0", arguments: ["validate"]),
        .init(variable: "HUBGEO_HTTP_MAX_REDIRECTS", value: "-1", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_MAX_REDIRECTS", value: "many", arguments: ["import"]),
        .init(variable: "HUBGEO_HTTP_MAX_REDIRECTS", value: "1000", arguments: ["validate"]),
        .init(variable: "HUBGEO_MAX_FILE_BYTES", value: "abc", arguments: ["import"]),
        .init(variable: "HUBGEO_MAX_FILE_BYTES", value: "0", arguments: ["import"]),
        .init(variable: "HUBGEO_MAX_FILE_BYTES", value: "-5", arguments: ["validate"]),
        .init(variable: "HUBGEO_MAX_FILE_BYTES", value: "99999999999999999999", arguments: ["import"]),
        .init(variable: "HUBGEO_REQUEST_INTERVAL", value: "abc", arguments: ["localize", "--lang", "en", "--offline"]),
        .init(variable: "HUBGEO_REQUEST_INTERVAL", value: "inf", arguments: ["localize", "--lang", "en", "--offline"]),
        .init(variable: "HUBGEO_NOMINATIM_ZOOM", value: "19", arguments: ["localize", "--lang", "en", "--offline"]),
        .init(variable: "HUBGEO_NOMINATIM_URL", value: "ftp://example.org", arguments: ["localize", "--lang", "en", "--offline"]),
        .init(variable: "HUBGEO_PORT", value: "99999", arguments: ["serve"]),
        .init(variable: "HUBGEO_PORT", value: "http", arguments: ["serve"]),
        .init(variable: "HUBGEO_CORS", value: "club.example", arguments: ["serve"]),
        .init(variable: "HUBGEO_CORS", value: "*, https://club.example", arguments: ["serve"]),
        .init(variable: "HUBGEO_PUBLIC_URL", value: "ftp://maps.example", arguments: ["serve"]),
        .init(variable: "HUBGEO_PUBLIC_URL", value: "https://maps.example/?x=1", arguments: ["serve"]),
    ]

    @Test(arguments: badValues)
    func aBadEnvironmentValueIsAnErrorNamingTheVariable(_ bad: BadValue) throws {
        var cli = cli
        cli.environment[bad.variable] = bad.value
        let result = try cli.run(bad.arguments, timeout: 60)
        #expect(result.status == 1, "\(bad.variable)=\(bad.value) hubgeo \(bad.arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("\(bad.variable) \"\(bad.value)\""), "\(result.stderr)")
        #expect(!result.stderr.contains("in the environment"), "the message names the variable: \(result.stderr)")
    }

    @Test func goodValuesAndTheBoundsOfEachRangeAreAccepted() throws {
        var cli = cli
        cli.environment["HUBGEO_HTTP_TIMEOUT"] = "3600"
        cli.environment["HUBGEO_HTTP_CONNECT_TIMEOUT"] = "0.5"
        cli.environment["HUBGEO_HTTP_MAX_BYTES"] = "1"
        cli.environment["HUBGEO_HTTP_MAX_REDIRECTS"] = "0"
        cli.environment["HUBGEO_MAX_FILE_BYTES"] = String(1 << 40)
        cli.environment["HUBGEO_REQUEST_INTERVAL"] = " 3600 "
        cli.environment["HUBGEO_NOMINATIM_ZOOM"] = "18"
        let imported = try cli.run(["import"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let localized = try cli.run(["localize", "--lang", "en", "--offline"])
        #expect(localized.status == 0, "\(localized.stderr)")
    }

    @Test func aBadConfigFileValueNamesTheFileAndLine() throws {
        let config = try home.write("config", "# hubgeo\nzoom = 14\nrequest-interval = soon\n")
        var cli = cli
        cli.environment["HUBGEO_CONFIG"] = config.path
        let result = try cli.run(["localize", "--lang", "en", "--offline"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(config.path):3: request-interval \"soon\""), "\(result.stderr)")
    }

    @Test("serve's --cors and --public-url: a bad value names the flag (exit 64), a typo is refused (exit 64), the config file names its line")
    func serveFlags() throws {
        for (arguments, expected) in [
            (["serve", "--cors", "club.example"], "--cors \"club.example\""),
            (["serve", "--cors", "https://club.example", "none"], "--cors \"none\""),
            (["serve", "--public-url", "ftp://maps.example"], "--public-url \"ftp://maps.example\""),
            (["serve", "--public-url", "https://maps.example/#x"], "--public-url \"https://maps.example/#x\""),
            (["serve", "--corss", "*"], "--cors"),
        ] {
            let result = try cli.run(arguments, timeout: 60)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        for (line, expected) in [("cors = club.example", ":2: cors \"club.example\""), ("public-url = maps.example", ":2: public-url \"maps.example\""),
                                 ("cors-origins = *", ":2: unknown key \"cors-origins\"")] {
            let config = try home.write("config", "# serve\n\(line)\n")
            var cli = cli
            cli.environment["HUBGEO_CONFIG"] = config.path
            let result = try cli.run(["serve"], timeout: 60)
            #expect(result.status == 1, "\(line): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(config.path + expected), "\(line): \(result.stderr)")
        }
    }

    // MARK: - Header values

    static let injected = "me@example.org\r\nX-Injected: yes"

    /// The requests the server saw, none with an injected header nor a control character in one.
    static func expectNothingInjected(_ server: LoopbackServer, _ context: String) throws {
        for request in try server.requests() {
            #expect(request.headers["x-injected"] == nil, "\(context): the server got \(request.headers)")
            for (name, value) in request.headers {
                #expect(!value.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(context): \(name): \(value)")
            }
        }
    }

    @Test func aContactOrEmailWithControlCharactersIsRefusedFromEverySource() throws {
        let server = try NominatimStandIn.start()
        var cli = cli
        cli.environment["HUBGEO_NOMINATIM_URL"] = server.baseURL.absoluteString
        cli.environment["HUBGEO_REQUEST_INTERVAL"] = "0"
        let geocode = ["geocode", "51.42398", "5.4501", "--lang", "en"]

        let flag = try cli.run(geocode + ["--contact", Self.injected])
        try Self.expectNothingInjected(server, "--contact")
        #expect(flag.status == 64, "\(flag.stderr)")
        #expect(flag.stderr.contains("--contact") && flag.stderr.contains("U+000D"), "\(flag.stderr)")

        let email = try cli.run(geocode + ["--email", Self.injected])
        #expect(email.status == 64 && email.stderr.contains("--email"), "\(email.stderr)")

        var environment = cli
        environment.environment["HUBGEO_CONTACT"] = Self.injected
        let fromEnvironment = try environment.run(geocode)
        try Self.expectNothingInjected(server, "HUBGEO_CONTACT")
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("HUBGEO_CONTACT"), "\(fromEnvironment.stderr)")
        let localize = try environment.run(["localize", "--lang", "en", "--type", "museum"])
        try Self.expectNothingInjected(server, "HUBGEO_CONTACT, localize")
        #expect(localize.status == 1 && localize.stderr.contains("HUBGEO_CONTACT"), "\(localize.stderr)")

        environment.environment["HUBGEO_CONTACT"] = nil
        environment.environment["HUBGEO_NOMINATIM_EMAIL"] = "me@example.org\u{1B}]0;title\u{07}"
        let emailVariable = try environment.run(geocode)
        #expect(emailVariable.status == 1 && emailVariable.stderr.contains("HUBGEO_NOMINATIM_EMAIL"), "\(emailVariable.stderr)")
        #expect(!emailVariable.stderr.contains("\u{1B}"), "the value is not echoed raw to the terminal")

        let config = try home.write("config", "contact = me@example.org\rX-Injected: yes\n")
        var fromFile = cli
        fromFile.environment["HUBGEO_CONFIG"] = config.path
        let file = try fromFile.run(geocode)
        try Self.expectNothingInjected(server, "config file")
        #expect(file.status == 1 && file.stderr.contains("\(config.path):1: contact"), "\(file.stderr)")

        #expect(try server.requests().isEmpty, "a refused setting sends no request")
        let clean = try cli.run(geocode + ["--contact", "me@example.org", "--email", "me@example.org"])
        #expect(clean.status == 0, "\(clean.stderr)")
        let sent = try #require(try server.requests().last)
        #expect(sent.headers["user-agent"] == "hubgeo/\(HubGeoVersion.current) (me@example.org)")
    }

    @Test func theHTTPClientRefusesAUserAgentWithControlCharacters() throws {
        let server = try LoopbackServer(script: ["/x": [.init(body: "ok")]])
        let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo (\(Self.injected))"))
        #expect(throws: FetchError.self) { try client.get(server.url("/x")) }
        try Self.expectNothingInjected(server, "User-Agent")
        #expect(try server.requests().isEmpty)
    }
}
