import Foundation

/// How an import uses the document cache for documents fetched by URL.
public enum DocumentCachePolicy: Sendable, Equatable {
    /// Ask the server about every document, conditionally when a copy is cached (the default).
    case revalidate
    /// Make no request for a copy the server vouched for less than this many seconds ago;
    /// revalidate older ones.
    case maxAge(TimeInterval)
    /// Ignore the cache: fetch every document whole, and never fall back on a cached copy.
    /// What is fetched is still stored.
    case refresh
    /// Make no request at all: every document comes from the cache; one never fetched is an error.
    case offline

    /// Reads a duration such as `7d`, `12h`, `30m`, `90s`, `2w` or `1d12h` (a plain number is
    /// seconds). Nil when `text` is none, or longer than 100 years.
    public static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if let seconds = Int(trimmed) { return seconds >= 0 ? Double(seconds) : nil }
        var total = 0.0, number = "", sawUnit = false
        for character in trimmed {
            if character.isASCII && character.isNumber {
                number.append(character)
            } else if let unit = units[character], let value = Int(number), number.count <= 9 {
                total += Double(value) * unit
                number = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard number.isEmpty, sawUnit, total <= 100 * 365.25 * 86_400 else { return nil }
        return total
    }
}
