import Foundation
import HubGeo

/// Where `hubgeo serve` listens and how much it answers. Host and port: flags win over
/// `HUBGEO_HOST` / `HUBGEO_PORT`, which win over the config file's `host` / `port` keys
/// (the file of ``NominatimConfiguration/configFilePath(environment:)``), over 127.0.0.1:8080.
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

    public init(host: String = defaultHost, port: Int = defaultPort, featureCap: Int = 5_000,
                requestTimeout: Duration = .seconds(10), maxURILength: Int = 2_048, languages: [String] = []) {
        self.host = host
        self.port = port
        self.featureCap = featureCap
        self.requestTimeout = requestTimeout
        self.maxURILength = maxURILength
        self.languages = languages
    }

    /// An error in the host or port settings.
    public struct Invalid: LocalizedError, Sendable {
        public var message: String
        public var errorDescription: String? { message }
    }

    /// Resolves host and port from flags, the environment and the config file.
    public static func resolve(host flagHost: String?, port flagPort: Int?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (host: String, port: Int) {
        var file: [String: (value: String, line: Int)] = [:]
        let path = NominatimConfiguration.configFilePath(environment: environment)
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Invalid(message: "cannot read the config file \(path)")
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
                let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
                let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if (key == "host" || key == "port") && !value.isEmpty { file[key] = (value, index + 1) }
            }
        }
        func environmentValue(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        let host = flagHost ?? environmentValue("HUBGEO_HOST") ?? file["host"]?.value ?? defaultHost
        guard !host.isEmpty else { throw Invalid(message: "the host is empty") }
        var port = defaultPort
        if let flagPort {
            port = flagPort
        } else if let value = SettingValue.environment("HUBGEO_PORT", in: environment) {
            port = try value.integer(in: 0...65_535)
        } else if let (text, line) = file["port"] {
            port = try SettingValue(text, from: .configFile(path: path, line: line, key: "port")).integer(in: 0...65_535)
        }
        guard (0...65_535).contains(port) else { throw Invalid(message: "port \(port) is outside 0-65535") }
        return (host, port)
    }
}
