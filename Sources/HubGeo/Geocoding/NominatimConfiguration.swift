import Foundation

/// Where and how hubgeo asks Nominatim: endpoint, identification, pace, zoom and retries.
///
/// Settings come from, strongest first: command-line flags (``Overrides``), the environment
/// (`HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`, `HUBGEO_REQUEST_INTERVAL`,
/// `HUBGEO_NOMINATIM_ZOOM`), the config file (`$HUBGEO_CONFIG`, else
/// `$XDG_CONFIG_HOME/hubgeo/config`, else `~/.config/hubgeo/config`; `key = value` lines with
/// the keys `nominatim-url`, `contact`, `email`, `request-interval`, `zoom`), then the defaults.
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
    public var backoffCap: TimeInterval
    /// A `Retry-After` longer than this (seconds) is not waited out: the batch stops instead.
    public var maxRetryAfter: TimeInterval
    public var connectTimeout: TimeInterval
    public var totalTimeout: TimeInterval

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

    /// The endpoint as stored in the cache: no trailing slash.
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
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    // MARK: - Resolving settings

    /// Partial settings from one source; nil means "not set here".
    public struct Overrides: Sendable, Equatable {
        public var endpoint: String?
        public var contact: String?
        public var email: String?
        public var requestInterval: TimeInterval?
        public var zoom: Int?

        public init(endpoint: String? = nil, contact: String? = nil, email: String? = nil,
                    requestInterval: TimeInterval? = nil, zoom: Int? = nil) {
            self.endpoint = endpoint
            self.contact = contact
            self.email = email
            self.requestInterval = requestInterval
            self.zoom = zoom
        }

        /// Fills what `self` leaves unset from `weaker`.
        public func merged(over weaker: Overrides) -> Overrides {
            Overrides(endpoint: endpoint ?? weaker.endpoint, contact: contact ?? weaker.contact,
                      email: email ?? weaker.email, requestInterval: requestInterval ?? weaker.requestInterval,
                      zoom: zoom ?? weaker.zoom)
        }

        /// `HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`,
        /// `HUBGEO_REQUEST_INTERVAL` (seconds), `HUBGEO_NOMINATIM_ZOOM`. Empty values count as unset.
        public static func fromEnvironment(_ environment: [String: String]) throws(GeocodeError) -> Overrides {
            func value(_ name: String) -> String? {
                guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
                return text
            }
            return try parse(endpoint: value("HUBGEO_NOMINATIM_URL"), contact: value("HUBGEO_CONTACT"),
                             email: value("HUBGEO_NOMINATIM_EMAIL"), interval: value("HUBGEO_REQUEST_INTERVAL"),
                             zoom: value("HUBGEO_NOMINATIM_ZOOM"), source: "the environment")
        }

        /// `key = value` lines; `#` starts a comment line. Unknown keys are errors, so typos show.
        public static func fromConfigFile(_ text: String, path: String) throws(GeocodeError) -> Overrides {
            var values: [String: String] = [:]
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                guard let equals = line.firstIndex(of: "=") else {
                    throw .configuration("\(path):\(index + 1): expected key = value")
                }
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                guard ["nominatim-url", "contact", "email", "request-interval", "zoom"].contains(key) else {
                    throw .configuration("\(path):\(index + 1): unknown key \"\(key)\"")
                }
                if !value.isEmpty { values[key] = value }
            }
            return try parse(endpoint: values["nominatim-url"], contact: values["contact"], email: values["email"],
                             interval: values["request-interval"], zoom: values["zoom"], source: path)
        }

        static func parse(endpoint: String?, contact: String?, email: String?, interval: String?, zoom: String?,
                          source: String) throws(GeocodeError) -> Overrides {
            var result = Overrides(endpoint: endpoint, contact: contact, email: email)
            if let interval {
                guard let seconds = TimeInterval(interval), seconds.isFinite, seconds >= 0 else {
                    throw .configuration("request interval \"\(interval)\" in \(source) is not a number of seconds")
                }
                guard seconds <= NominatimConfiguration.maximumInterval else {
                    throw .configuration("request interval \"\(interval)\" in \(source) is more than "
                        + "\(Int(NominatimConfiguration.maximumInterval)) seconds")
                }
                result.requestInterval = seconds
            }
            if let zoom {
                guard let level = Int(zoom), (0...18).contains(level) else {
                    throw .configuration("zoom \"\(zoom)\" in \(source) is not 0-18")
                }
                result.zoom = level
            }
            return result
        }
    }

    /// The config file path: `$HUBGEO_CONFIG`, else `$XDG_CONFIG_HOME/hubgeo/config`, else `~/.config/hubgeo/config`.
    public static func configFilePath(environment: [String: String]) -> String {
        if let path = environment["HUBGEO_CONFIG"], !path.isEmpty { return path }
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".config")
        }
        return (base as NSString).appendingPathComponent("hubgeo/config")
    }

    /// Flags over environment over config file over defaults. A missing config file is fine;
    /// an unreadable or malformed one, a bad URL or a bad number is a ``GeocodeError/configuration(_:)``.
    public static func resolve(flags: Overrides = Overrides(),
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(GeocodeError) -> NominatimConfiguration {
        let path = configFilePath(environment: environment)
        var file = Overrides()
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .configuration("cannot read the config file \(path)")
            }
            file = try Overrides.fromConfigFile(text, path: path)
        }
        let settings = flags.merged(over: try Overrides.fromEnvironment(environment)).merged(over: file)
        var endpoint = publicEndpoint
        if let text = settings.endpoint {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil else {
                throw .configuration("Nominatim URL \"\(text)\" is not an http(s) URL")
            }
            endpoint = url
        }
        return NominatimConfiguration(endpoint: endpoint, contact: settings.contact, email: settings.email,
                                      minimumInterval: settings.requestInterval,
                                      zoom: settings.zoom ?? defaultZoom)
    }
}
