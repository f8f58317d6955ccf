import Foundation
import HubGeoModel

/// Where and how hubgeo asks Nominatim: endpoint, identification, pace, zoom and retries.
///
/// Settings come from, strongest first: command-line flags (``Overrides``), the environment
/// (`HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`, `HUBGEO_REQUEST_INTERVAL`,
/// `HUBGEO_NOMINATIM_ZOOM`), the config file (`$HUBGEO_CONFIG`, else
/// `$XDG_CONFIG_HOME/hubgeo/config`, else `~/.config/hubgeo/config`; `key = value` lines with
/// the keys `nominatim-url`, `contact`, `email`, `request-interval`, `zoom`; `host` and `port` belong to
/// `hubgeo serve` and are accepted here), then the defaults.
public struct NominatimConfiguration: Sendable, Equatable {
    /// The public OSMF server, used when nothing else is configured.
    public static let publicEndpoint = URL(string: "https://nominatim.openstreetmap.org")!
    /// The zoom hubgeo asks for: 14 (neighbourhood) reaches villages, which zoom 10-12 loses
    /// to their municipality, and hamlets and suburbs for the last-resort town keys.
    public static let defaultZoom = 14
    /// The OSMF usage policy's absolute maximum: one request per second.
    public static let publicMinimumInterval: TimeInterval = 1
    /// The longest request interval accepted from flags, environment or config file: one hour.
    public static let maximumInterval: TimeInterval = 3600

    /// Base URL of the Nominatim server; `/reverse` is appended.
    public var endpoint: URL
    /// How the server operator can reach the user (URL or e-mail), sent in the User-Agent.
    public var contact: String?
    /// Sent as the `email=` parameter when set (the OSMF recommends it for heavy use).
    public var email: String?
    /// Least time between the starts of two requests, in seconds. Never below one second
    /// for the public server.
    public var minimumInterval: TimeInterval
    /// The `zoom` parameter (0-18).
    public var zoom: Int
    /// Retries after a 5xx, 429, timeout or broken connection (so at most `maxRetries + 1` tries).
    public var maxRetries: Int
    /// First backoff delay in seconds; doubled per retry up to `backoffCap`.
    public var backoffBase: TimeInterval
    /// The longest backoff delay, in seconds.
    public var backoffCap: TimeInterval
    /// A `Retry-After` longer than this (seconds) is not waited out: the batch stops instead.
    public var maxRetryAfter: TimeInterval
    /// Seconds allowed to connect.
    public var connectTimeout: TimeInterval
    /// Seconds allowed for a whole request.
    public var totalTimeout: TimeInterval

    /// Settings with these values; `minimumInterval` is one second when not given, and never less for the public server.
    public init(endpoint: URL = NominatimConfiguration.publicEndpoint, contact: String? = nil, email: String? = nil,
                minimumInterval: TimeInterval? = nil, zoom: Int = NominatimConfiguration.defaultZoom,
                maxRetries: Int = 3, backoffBase: TimeInterval = 1, backoffCap: TimeInterval = 30,
                maxRetryAfter: TimeInterval = 120, connectTimeout: TimeInterval = 10, totalTimeout: TimeInterval = 30) {
        self.endpoint = endpoint
        self.contact = contact.flatMap { $0.isEmpty ? nil : $0 }
        self.email = email.flatMap { $0.isEmpty ? nil : $0 }
        self.zoom = zoom
        self.maxRetries = max(0, maxRetries)
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.maxRetryAfter = maxRetryAfter
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        let isPublic = Self.isPublic(endpoint)
        let interval = minimumInterval ?? Self.publicMinimumInterval
        self.minimumInterval = isPublic ? max(Self.publicMinimumInterval, interval) : max(0, interval)
    }

    /// True for the OSMF's public server, where the usage policy applies.
    public var isPublicServer: Bool { Self.isPublic(endpoint) }

    /// The endpoint as stored in the cache and shown: no trailing slash, no user and password.
    public var endpointKey: String { Self.endpointKey(endpoint) }

    /// `hubgeo/<version> (<contact>)`, or just `hubgeo/<version>` with no contact.
    public var userAgent: String {
        let product = "hubgeo/\(HubGeoVersion.current)"
        return contact.map { "\(product) (\($0))" } ?? product
    }

    static func isPublic(_ url: URL) -> Bool {
        url.host?.lowercased() == publicEndpoint.host
    }

    static func endpointKey(_ url: URL) -> String {
        var text = URLRedaction.redacted(url)  // shown and stored: never a user and password
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    // MARK: - Resolving settings

    /// Partial settings from one source; nil means "not set here".
    public struct Overrides: Sendable, Equatable {
        /// The server's base URL.
        public var endpoint: String?
        /// How the server operator can reach the user.
        public var contact: String?
        /// The `email=` parameter.
        public var email: String?
        /// Least seconds between two requests.
        public var requestInterval: TimeInterval?
        /// The `zoom` parameter.
        public var zoom: Int?

        /// Settings with these values; nil is "not set here".
        public init(endpoint: String? = nil, contact: String? = nil, email: String? = nil,
                    requestInterval: TimeInterval? = nil, zoom: Int? = nil) {
            self.endpoint = endpoint
            self.contact = contact
            self.email = email
            self.requestInterval = requestInterval
            self.zoom = zoom
        }

        /// Fills what `self` leaves unset from `weaker`.
        package func merged(over weaker: Overrides) -> Overrides {
            Overrides(endpoint: endpoint ?? weaker.endpoint, contact: contact ?? weaker.contact,
                      email: email ?? weaker.email, requestInterval: requestInterval ?? weaker.requestInterval,
                      zoom: zoom ?? weaker.zoom)
        }

        /// `HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`,
        /// `HUBGEO_REQUEST_INTERVAL` (seconds), `HUBGEO_NOMINATIM_ZOOM`. Empty values count as unset;
        /// a bad one is an error naming the variable.
        package static func fromEnvironment(_ environment: [String: String]) throws(GeocodeError) -> Overrides {
            func value(_ name: String) -> SettingValue? { SettingValue.environment(name, in: environment) }
            return try parse(endpoint: value("HUBGEO_NOMINATIM_URL"), contact: value("HUBGEO_CONTACT"),
                             email: value("HUBGEO_NOMINATIM_EMAIL"), interval: value("HUBGEO_REQUEST_INTERVAL"),
                             zoom: value("HUBGEO_NOMINATIM_ZOOM"))
        }

        /// The geocoder's settings of the config file (``ConfigFile``).
        package static func fromConfigFile(_ file: ConfigFile) throws(GeocodeError) -> Overrides {
            try parse(endpoint: file["nominatim-url"], contact: file["contact"], email: file["email"],
                      interval: file["request-interval"], zoom: file["zoom"])
        }

        /// The flags' settings checked as those of the other sources are (the CLI checks the
        /// numbers while parsing them).
        func checkedAsFlags() throws(GeocodeError) -> Overrides {
            var checked = try Self.parse(endpoint: endpoint.map { SettingValue($0, from: .flag("--nominatim-url")) },
                                         contact: contact.map { SettingValue($0, from: .flag("--contact")) },
                                         email: email.map { SettingValue($0, from: .flag("--email")) },
                                         interval: nil, zoom: nil)
            checked.requestInterval = requestInterval
            checked.zoom = zoom
            return checked
        }

        static func parse(endpoint: SettingValue?, contact: SettingValue?, email: SettingValue?, interval: SettingValue?,
                          zoom: SettingValue?) throws(GeocodeError) -> Overrides {
            do throws(SettingError) {
                _ = try endpoint?.httpURL()
                return Overrides(endpoint: endpoint?.text, contact: try contact?.headerText(), email: try email?.headerText(),
                                 requestInterval: try interval?.seconds(in: 0...NominatimConfiguration.maximumInterval),
                                 zoom: try zoom?.integer(in: 0...18))
            } catch {
                throw .configuration(error.message)
            }
        }
    }

    /// Flags over environment over config file over defaults. A missing config file is fine;
    /// an unreadable or malformed one, a bad URL, a bad number, or a control character in the
    /// contact or e-mail (they are sent in the request) is a ``GeocodeError/configuration(_:)`` naming
    /// the flag, the variable or the config file line.
    public static func resolve(flags: Overrides = Overrides(),
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(GeocodeError) -> NominatimConfiguration {
        let configFile: ConfigFile
        do throws(ConfigFile.Failure) {
            configFile = try ConfigFile.read(environment: environment)
        } catch {
            throw .configuration(error.message)
        }
        let file = try Overrides.fromConfigFile(configFile)
        let settings = try flags.checkedAsFlags().merged(over: try Overrides.fromEnvironment(environment)).merged(over: file)
        let endpoint = settings.endpoint.flatMap { URL(string: $0) } ?? publicEndpoint
        return NominatimConfiguration(endpoint: endpoint, contact: settings.contact, email: settings.email,
                                      minimumInterval: settings.requestInterval,
                                      zoom: settings.zoom ?? defaultZoom)
    }
}
