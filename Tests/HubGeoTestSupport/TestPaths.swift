import Foundation

/// Paths of the repository's test fixtures and data, found from this source file.
package enum TestPaths {
    /// `Tests/`.
    package static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures`, shared by every test target.
    package static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    /// The scripts beside the support's Swift files (a loopback server, the browser driver, the tile readers).
    package static let supportDirectory = testsDirectory.appendingPathComponent("HubGeoTestSupport")
    package static let upstream = fixtures.appendingPathComponent("upstream")
    package static let packageRoot = testsDirectory.deletingLastPathComponent()
    package static let data = packageRoot.appendingPathComponent("Data")

    /// A new empty directory that is removed when the returned value is released.
    package static func temporaryDirectory() throws -> TemporaryDirectory { try TemporaryDirectory() }
}
