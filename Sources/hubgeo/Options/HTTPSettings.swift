import Foundation
import HubGeo

/// The HTTP limits for fetching Level 1/2 files, from the environment where set:
/// `HUBGEO_HTTP_TIMEOUT` (seconds for a whole request, default 30),
/// `HUBGEO_HTTP_CONNECT_TIMEOUT` (default 10), `HUBGEO_HTTP_MAX_BYTES` (default 20 MiB),
/// `HUBGEO_HTTP_MAX_REDIRECTS` (default 5); and the size limit of a file on disk,
/// `HUBGEO_MAX_FILE_BYTES` (default 20 MiB; raise it for very large generated data sets).
/// A value that is not a number of the variable's range is an error naming the variable.
enum HTTPSettings {
    /// Time limits: more than nothing, at most an hour.
    static let timeouts: ClosedRange<TimeInterval> = 0.001...3600
    /// Size limits: 1 byte to 1 TiB.
    static let sizes: ClosedRange<Int> = 1...(1 << 40)
    /// Redirects followed for one request.
    static let redirects: ClosedRange<Int> = 0...20

    static func maxFileBytes(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
        try SettingValue.environment("HUBGEO_MAX_FILE_BYTES", in: environment)?.integer(in: sizes) ?? DocumentReader.defaultMaxFileBytes
    }

    static func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CurlClientConfiguration {
        func value(_ name: String) -> SettingValue? { SettingValue.environment(name, in: environment) }
        var configuration = CurlClientConfiguration(userAgent: "hubgeo/\(HubGeoVersion.current)")
        if let value = try value("HUBGEO_HTTP_TIMEOUT")?.seconds(in: timeouts) { configuration.totalTimeout = value }
        if let value = try value("HUBGEO_HTTP_CONNECT_TIMEOUT")?.seconds(in: timeouts) { configuration.connectTimeout = value }
        if let value = try value("HUBGEO_HTTP_MAX_BYTES")?.integer(in: sizes) { configuration.maxBodyBytes = value }
        if let value = try value("HUBGEO_HTTP_MAX_REDIRECTS")?.integer(in: redirects) { configuration.maxRedirects = value }
        return configuration
    }
}
