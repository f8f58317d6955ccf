import Foundation

/// How a report names a file for a CI system: relative to a base folder (the repository's
/// checkout) when the file lies inside it, else as it is (an http(s) URL, a path elsewhere).
public struct ReportPaths: Sendable {
    /// The folder files are named relative to, with a trailing slash.
    public let base: String

    public init(base: String) {
        self.base = base.hasSuffix("/") ? base : base + "/"
    }

    /// GitHub's checkout (`GITHUB_WORKSPACE`) when set, else the current directory.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> ReportPaths {
        ReportPaths(base: environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath)
    }

    public func relative(_ file: String) -> String {
        file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
    }
}
