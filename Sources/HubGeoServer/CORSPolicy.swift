import Foundation
import HubGeo

/// Which web pages on other sites may read the server's answers (CORS): every origin (the default,
/// as martin and most tile servers allow), the origins listed, or none. Set by `--cors`,
/// `HUBGEO_CORS` or `cors =` in the config file: `*`, `none`, or origins (`https://club.example`,
/// `http://127.0.0.1:3000`) separated by commas or spaces.
public enum CORSPolicy: Sendable, Equatable {
    /// Every origin: `Access-Control-Allow-Origin: *`.
    case anyOrigin
    /// These origins (scheme, host and port, lower-cased): a request from one of them is answered
    /// with its own origin, and every answer carries `Vary: Origin`.
    case origins([String])
    /// No CORS header: only pages of this server (and clients that are no browser) read it.
    case noOrigin

    /// The policy of `values` (the values of `--cors`, or the one text of the variable or the config
    /// file), each a list separated by commas or spaces; the error names the setting.
    package init(_ values: [SettingValue]) throws(SettingError) {
        var origins: [String] = []
        var words: [(String, SettingValue)] = []
        for value in values {
            let parts = value.text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
            guard !parts.isEmpty else { throw value.invalid("is not *, none or a list of origins") }
            words += parts.map { (String($0), value) }
        }
        for (word, value) in words {
            switch word.lowercased() {
            case "*", "none":
                guard words.count == 1 else { throw value.invalid("mixes \(word) with other values: give *, none, or origins") }
                self = word == "*" ? .anyOrigin : .noOrigin
                return
            default:
                guard let origin = Self.origin(word) else {
                    throw value.invalid("is not *, none or a list of origins: \"\(TerminalSafe.escaped(word))\" is not "
                                        + "scheme://host[:port] (such as https://club.example)")
                }
                if !origins.contains(origin) { origins.append(origin) }
            }
        }
        self = .origins(origins)
    }

    /// `text` as a browser sends it in `Origin` (lower-cased), when it is an http(s) origin:
    /// a scheme and host, a port perhaps, nothing else.
    static func origin(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, HostHeader.isValidHost(host),
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
              components.path.isEmpty else { return nil }
        if let port = components.port, !(1...65_535).contains(port) { return nil }
        return text.lowercased()
    }

    /// The value of `Access-Control-Allow-Origin` for a request from `origin`, nil for none.
    func allowedOrigin(for origin: String?) -> String? {
        switch self {
        case .anyOrigin: return "*"
        case .noOrigin: return nil
        case .origins(let list):
            guard let origin, list.contains(origin.lowercased()) else { return nil }
            return origin
        }
    }
}
