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

/// A scratch directory for one test, deleted on deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the directory and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }
}
