import Foundation

/// A scratch directory for one test, deleted on deinit.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the directory and returns its URL.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }
}
