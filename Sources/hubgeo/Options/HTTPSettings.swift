import Foundation
import HubGeo

/// The HTTP limits for fetching Level 1/2 files, from the environment where set:
/// `HUBGEO_HTTP_TIMEOUT` (seconds for a whole request, default 30),
/// `HUBGEO_HTTP_CONNECT_TIMEOUT` (default 10), `HUBGEO_HTTP_MAX_BYTES` (default 20 MiB),
/// `HUBGEO_HTTP_MAX_REDIRECTS` (default 5); and the size limit of a file on disk,
/// `HUBGEO_MAX_FILE_BYTES` (default 20 MiB; raise it for very large generated data sets).
enum HTTPSettings {
    static func maxFileBytes(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        environment["HUBGEO_MAX_FILE_BYTES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? DocumentReader.defaultMaxFileBytes
    }

    static func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration(userAgent: "hubgeo/\(HubGeoVersion.current)")
        if let value = environment["HUBGEO_HTTP_TIMEOUT"].flatMap(Double.init), value > 0 { configuration.totalTimeout = value }
        if let value = environment["HUBGEO_HTTP_CONNECT_TIMEOUT"].flatMap(Double.init), value > 0 { configuration.connectTimeout = value }
        if let value = environment["HUBGEO_HTTP_MAX_BYTES"].flatMap(Int.init), value > 0 { configuration.maxBodyBytes = value }
        if let value = environment["HUBGEO_HTTP_MAX_REDIRECTS"].flatMap(Int.init), value >= 0 { configuration.maxRedirects = value }
        return configuration
    }
}
