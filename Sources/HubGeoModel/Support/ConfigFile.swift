import Foundation

/// hubgeo's config file, read by one reader for every setting it holds (the geocoder's and
/// `serve`'s): `key = value` lines, `#` starts a comment line, spaces around both are ignored and
/// so is the CR of a CRLF line end. A key hubgeo does not know is an error (a typo would otherwise
/// be silently ignored); an empty value counts as unset. Each value keeps its file and line for
/// the messages of ``SettingValue``.
package struct ConfigFile: Sendable, Equatable {
    /// Every key of the file: the geocoder's (docs/geocoding.md) and `serve`'s (docs/data.md).
    package static let keys: Set<String> = ["nominatim-url", "contact", "email", "request-interval", "zoom",
                                            "host", "port", "cors", "public-url"]

    /// Where the file is (it may not exist).
    package var path: String
    /// The values given, by key.
    package var values: [String: SettingValue]

    /// A config file that cannot be used: unreadable, a line that is no `key = value`, an unknown key.
    package struct Failure: LocalizedError, Sendable, Equatable {
        package var message: String
        package var errorDescription: String? { message }
    }

    /// The config file path: `$HUBGEO_CONFIG`, else `$XDG_CONFIG_HOME/hubgeo/config`, else `~/.config/hubgeo/config`.
    package static func path(environment: [String: String]) -> String {
        if let path = environment["HUBGEO_CONFIG"], !path.isEmpty { return path }
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".config")
        }
        return (base as NSString).appendingPathComponent("hubgeo/config")
    }

    /// The file that `environment` names; no values when it does not exist.
    package static func read(environment: [String: String]) throws(Failure) -> ConfigFile {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile(path: path, values: [:]) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(message: "cannot read the config file \(path)")
        }
        return try ConfigFile(text, path: path)
    }

    /// The settings of `text`, the file at `path`.
    package init(_ text: String, path: String) throws(Failure) {
        self.path = path
        values = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else { throw Failure(message: "\(path):\(index + 1): expected key = value") }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard Self.keys.contains(key) else { throw Failure(message: "\(path):\(index + 1): unknown key \"\(TerminalSafe.escaped(key))\"") }
            if !value.isEmpty { values[key] = SettingValue(value, from: .configFile(path: path, line: index + 1, key: key)) }
        }
    }

    init(path: String, values: [String: SettingValue]) {
        self.path = path
        self.values = values
    }

    /// The value of `key`, nil when unset.
    package subscript(key: String) -> SettingValue? { values[key] }
}
