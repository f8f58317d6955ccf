import Foundation

/// One setting's text and where it came from: a flag, an environment variable or a line of the
/// config file. Every setting hubgeo reads is checked here, the same way whatever its source, and
/// every error names that source (`--contact`, `HUBGEO_HTTP_TIMEOUT`, `~/.config/hubgeo/config:3: zoom`).
package struct SettingValue: Sendable, Equatable {
    /// Where a setting was given.
    package enum Source: Sendable, Equatable, CustomStringConvertible {
        /// A command-line flag, such as `--contact`.
        case flag(String)
        /// An environment variable, such as `HUBGEO_CONTACT`.
        case environment(String)
        /// A `key = value` line of a config file (lines counted from 1).
        case configFile(path: String, line: Int, key: String)

        package var description: String {
            switch self {
            case .flag(let name), .environment(let name): name
            case .configFile(let path, let line, let key): "\(path):\(line): \(key)"
            }
        }
    }

    /// The value as given, without surrounding spaces.
    package var text: String
    package var source: Source

    package init(_ text: String, from source: Source) {
        self.text = text.trimmingCharacters(in: .whitespaces)
        self.source = source
    }

    /// The variable `name` of `environment`, nil when it is unset or blank.
    package static func environment(_ name: String, in environment: [String: String]) -> SettingValue? {
        guard let text = environment[name], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return SettingValue(text, from: .environment(name))
    }

    // MARK: - Checks

    /// A finite number of seconds within `range` ("inf" and "nan" are no durations).
    package func seconds(in range: ClosedRange<TimeInterval>) throws(SettingError) -> TimeInterval {
        guard let seconds = DecimalNumber.parse(text), range.contains(seconds) else {
            throw invalid("is not a number of seconds from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return seconds
    }

    /// A whole number within `range`.
    package func integer(in range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw invalid("is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Text that is sent in an HTTP header or a URL (a contact, an e-mail address): no control
    /// character (U+0000-U+001F, U+007F-U+009F), which could end the header and start another.
    package func headerText() throws(SettingError) -> String {
        if let control = TerminalSafe.escapedCharacters(in: text, where: TerminalSafe.isControl).first {
            throw SettingError(source: source, message: "\(source) contains the control character \(control), "
                + "which cannot be sent in an HTTP request")
        }
        return text
    }

    /// An http or https URL with a host.
    package func httpURL() throws(SettingError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw invalid("is not an http(s) URL")
        }
        return url
    }

    // MARK: - Messages

    /// `SOURCE "VALUE" PROBLEM`, the value as ``TerminalSafe`` shows it.
    package func invalid(_ problem: String) -> SettingError {
        SettingError(source: source, message: "\(source) \"\(TerminalSafe.escaped(text))\" \(problem)")
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// A setting that cannot be used; the message names where it was given.
package struct SettingError: LocalizedError, Sendable, Equatable {
    package var source: SettingValue.Source
    package var message: String

    package var errorDescription: String? { message }
}
