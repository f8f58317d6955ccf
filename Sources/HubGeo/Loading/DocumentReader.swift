import Foundation

/// Reads the bytes of Photo Club Hub files from disk, from the embedded data, or over HTTP(S).
public struct DocumentReader: Sendable {
    /// Fetches a remote document; returns nil when the server says it does not exist (404/410).
    public typealias RemoteFetch = @Sendable (URL) throws -> Data?

    private let remoteFetch: RemoteFetch?

    /// - Parameter remoteFetch: how to fetch http(s) documents; nil refuses remote documents.
    public init(remoteFetch: RemoteFetch?) {
        self.remoteFetch = remoteFetch
    }

    /// The document's bytes, or nil when it does not exist.
    public func read(_ location: DocumentLocation) throws -> Data? {
        switch location {
        case .embedded(let name):
            return EmbeddedData.file(named: name)
        case .file(let url):
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw LoadError.unreadable(file: location.description, reason: error.localizedDescription)
            }
        case .remote(let url):
            guard let remoteFetch else {
                throw LoadError.unreadable(file: location.description, reason: "remote documents are not enabled")
            }
            do {
                return try remoteFetch(url)
            } catch let error as LoadError {
                throw error
            } catch {
                throw LoadError.unreadable(file: location.description, reason: error.localizedDescription)
            }
        }
    }

    /// The Level 2 files that sit in the same folder as `location` (none for remote folders,
    /// which cannot be listed).
    public func level2Files(besides location: DocumentLocation) -> [DocumentLocation] {
        let suffix = ".level2.json"
        switch location {
        case .embedded:
            return EmbeddedData.fileNames.filter { $0.hasSuffix(suffix) }.map { .embedded($0) }
        case .file(let url):
            let folder = url.deletingLastPathComponent()
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(suffix) }.sorted().map { .file(folder.appendingPathComponent($0)) }
        case .remote:
            return []
        }
    }
}
