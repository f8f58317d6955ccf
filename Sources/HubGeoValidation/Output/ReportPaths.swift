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

    /// Where a problem matcher's file names are looked for: in a GitHub Actions step
    /// (`GITHUB_ACTIONS=true`) whose current directory lies in `GITHUB_WORKSPACE`, the workspace,
    /// against which the runner resolves a relative file of a matched line (a checkout into a
    /// subfolder, `working-directory: head`, then prints `head/JSON/…`); else the current directory.
    package static func problemMatcher(environment: [String: String]) -> ReportPaths {
        let current = ReportPaths.current()
        guard environment["GITHUB_ACTIONS"] == "true", let workspace = environment["GITHUB_WORKSPACE"], !workspace.isEmpty else {
            return current
        }
        let root = ReportPaths(base: workspace)
        return (current.base == root.base || current.base.hasPrefix(root.base)) ? root : current
    }

    /// `file` relative to the base when it lies inside it, else as it is.
    public func relative(_ file: String) -> String {
        file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
    }
}
