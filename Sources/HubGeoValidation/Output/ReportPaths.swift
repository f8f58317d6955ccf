import Foundation

/// How a report names a file for a CI system: relative to a base folder (the repository's
/// checkout) when the file lies inside it, else as it is (an http(s) URL, a path elsewhere).
public struct ReportPaths: Sendable {
    /// The folder files are named relative to, with a trailing slash.
    public let base: String

    /// Paths relative to the folder `base`.
    public init(base: String) {
        self.base = base.hasSuffix("/") ? base : base + "/"
    }

    /// The current directory: in a workflow, the step's working directory, the checkout's root
    /// (a checkout into a subfolder runs hubgeo there, `working-directory: head`).
    public static func current() -> ReportPaths {
        ReportPaths(base: FileManager.default.currentDirectoryPath)
    }

    /// `file` relative to the base when it lies inside it, else as it is.
    public func relative(_ file: String) -> String {
        file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
    }
}
