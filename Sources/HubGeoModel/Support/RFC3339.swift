import Foundation

/// Times as hubgeo writes them, in the database and in JSON output: RFC 3339 in UTC
/// (`2026-11-22T20:13:15Z`), and ages as people read them (`3d 4h`).
package enum RFC3339 {
    /// `date` as an RFC 3339 UTC string, to the second.
    package static func string(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// The date an RFC 3339 string stands for (nil when it is none).
    package static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }

    /// An age in words: `45s`, `12m`, `5h 3m`, `3d 4h`.
    package static func age(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded(.down)))
        let days = total / 86_400, hours = total % 86_400 / 3600, minutes = total % 3600 / 60
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        if minutes > 0 { return "\(minutes)m" }
        return "\(total)s"
    }
}
