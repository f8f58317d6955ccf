import Foundation
import HubGeo

/// Where `hubgeo serve` listens, how much it answers and for whom. Host, port, CORS and public URL:
/// flags win over `HUBGEO_HOST`, `HUBGEO_PORT`, `HUBGEO_CORS`, `HUBGEO_PUBLIC_URL`, which win over the
/// config file's `host`, `port`, `cors`, `public-url` keys (``ConfigFile``), over 127.0.0.1:8080,
/// every origin, and the request's `Host`. Every value is checked the same way whatever its source.
public struct ServerSettings: Sendable, Equatable {
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080

    public var host: String
    public var port: Int
    /// The most features one response carries; past it, `"truncated": true`.
    public var featureCap: Int
    /// The longest a query may take before the request gets a 503.
    public var requestTimeout: Duration
    /// Longer request targets (path and query) get a 414.
    public var maxURILength: Int
    /// Languages of the page's switcher (empty: the cached ones).
    public var languages: [String]
    /// Which pages on other sites may read the answers.
    public var cors: CORSPolicy
    /// Where clients reach the server, for the absolute URLs it writes; nil: the request's `Host`.
    public var publicURL: PublicURL?

    public init(host: String = defaultHost, port: Int = defaultPort, featureCap: Int = 5_000,
                requestTimeout: Duration = .seconds(10), maxURILength: Int = 2_048, languages: [String] = [],
                cors: CORSPolicy = .anyOrigin, publicURL: PublicURL? = nil) {
        self.host = host
        self.port = port
        self.featureCap = featureCap
        self.requestTimeout = requestTimeout
        self.maxURILength = maxURILength
        self.languages = languages
        self.cors = cors
        self.publicURL = publicURL
    }

    /// The listening address as a URL's authority (an IPv6 address in brackets), for a request
    /// without a `Host`.
    var listeningAuthority: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// An error in the settings, naming the variable or the config file and line.
    public struct Invalid: LocalizedError, Sendable {
        public var message: String
        public var errorDescription: String? { message }
    }

    /// The flags' values of the settings that also come from the environment and the config file;
    /// nil (or empty) is "not given".
    public struct Flags: Sendable {
        /// `--host`.
        public var host: String?
        /// `--port`.
        public var port: Int?
        /// The values of `--cors`, each `*`, `none` or origins.
        public var cors: [String]
        /// `--public-url`.
        public var publicURL: String?

        /// The flags as given (nil or empty: not given).
        public init(host: String? = nil, port: Int? = nil, cors: [String] = [], publicURL: String? = nil) {
            self.host = host
            self.port = port
            self.cors = cors
            self.publicURL = publicURL
        }

        /// The CORS policy and public URL of the flags, checked as those of the other sources are;
        /// the error names the flag.
        package func checked() throws(SettingError) -> (cors: CORSPolicy?, publicURL: PublicURL?) {
            (cors.isEmpty ? nil : try CORSPolicy(cors.map { SettingValue($0, from: .flag("--cors")) }),
             try publicURL.map { value throws(SettingError) in try PublicURL(SettingValue(value, from: .flag("--public-url"))) })
        }
    }

    /// Resolves host, port, CORS and public URL from `flags`, the environment and the config file;
    /// the other settings are the defaults.
    public static func resolve(_ flags: Flags, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerSettings {
        let file: ConfigFile
        do throws(ConfigFile.Failure) {
            file = try ConfigFile.read(environment: environment)
        } catch {
            throw Invalid(message: error.message)
        }
        func value(_ variable: String, _ key: String) -> SettingValue? {
            SettingValue.environment(variable, in: environment) ?? file[key]
        }
        var settings = ServerSettings()
        do throws(SettingError) {
            settings.host = flags.host ?? value("HUBGEO_HOST", "host")?.text ?? defaultHost
            if let port = flags.port {
                settings.port = port
            } else if let port = value("HUBGEO_PORT", "port") {
                settings.port = try port.integer(in: 0...65_535)
            }
            let checked = try flags.checked()
            if let cors = checked.cors {
                settings.cors = cors
            } else if let cors = value("HUBGEO_CORS", "cors") {
                settings.cors = try CORSPolicy([cors])
            }
            if let publicURL = checked.publicURL {
                settings.publicURL = publicURL
            } else if let publicURL = value("HUBGEO_PUBLIC_URL", "public-url") {
                settings.publicURL = try PublicURL(publicURL)
            }
        } catch {
            throw Invalid(message: error.message)
        }
        guard !settings.host.isEmpty else { throw Invalid(message: "the host is empty") }
        guard (0...65_535).contains(settings.port) else { throw Invalid(message: "port \(settings.port) is outside 0-65535") }
        return settings
    }
}
