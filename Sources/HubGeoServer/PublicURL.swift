import Foundation
import HubGeo

/// The address at which clients reach `hubgeo serve` when it is not the one the request names, such
/// as behind a reverse proxy that ends TLS or serves it under a path (`https://maps.example/hub`):
/// the scheme, host, port and path prefix of every absolute URL the server writes (the TileJSON's
/// tile URLs), instead of `http://` and the request's `Host`. Set by `--public-url`,
/// `HUBGEO_PUBLIC_URL` or `public-url =` in the config file.
public struct PublicURL: Sendable, Equatable, CustomStringConvertible {
    /// `scheme://host[:port][/prefix]` without a trailing slash: what the server's paths follow.
    public let base: String

    /// The base URL, as ``base``.
    public var description: String { base }

    /// The public URL of `value`: http or https, a host, perhaps a port and a path; no user, query or
    /// fragment. The error names the setting.
    package init(_ value: SettingValue) throws(SettingError) {
        guard let components = URLComponents(string: value.text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, HostHeader.isValidHost(host) else {
            throw value.invalid("is not an http(s) URL with a host (such as https://maps.example/hub)")
        }
        guard components.user == nil, components.password == nil, components.query == nil, components.fragment == nil else {
            throw value.invalid("has a user, a query or a fragment: give scheme://host[:port][/path]")
        }
        if let port = components.port, !(1...65_535).contains(port) { throw value.invalid("has a port outside 1-65535") }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard path.isEmpty || path.hasPrefix("/"), !path.contains("//"), !path.contains("{"), !path.contains("}") else {
            throw value.invalid("has a path that is not /segment/segment")
        }
        var base = value.text
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }
}
