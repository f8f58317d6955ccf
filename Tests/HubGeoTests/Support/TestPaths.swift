import Foundation

/// Paths of the repository's test fixtures and data, found from this source file.
enum TestPaths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    static let upstream = fixtures.appendingPathComponent("upstream")
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let data = packageRoot.appendingPathComponent("Data")

    /// A new empty directory that is removed when the returned value is released.
    static func temporaryDirectory() throws -> TemporaryDirectory { try TemporaryDirectory() }
}
