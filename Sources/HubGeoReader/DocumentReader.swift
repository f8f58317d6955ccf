import Foundation
import HubGeoJSON
import HubGeoModel

/// Reads the bytes of Photo Club Hub files from disk, from the embedded data, or over HTTP(S).
public struct DocumentReader: Sendable {
    /// Fetches a remote document; returns nil when the server says it does not exist (404/410).
    public typealias RemoteFetch = @Sendable (URL) throws -> Data?

    private let remoteFetch: RemoteFetch?
    /// Files on disk larger than this are refused before they are read (the same limit as
    /// the HTTP client's default body limit: real Photo Club Hub files are well under 1 MiB).
    public let maxFileBytes: Int
    /// Where every answer of ``read(_:)`` and ``level2Files(besides:)`` is noted, when set (an import's record).
    package var readLog: DocumentReadLog?

    /// The default largest document read: 20 MiB.
    public static let defaultMaxFileBytes = 20 * 1024 * 1024

    /// - Parameter remoteFetch: how to fetch http(s) documents; nil refuses remote documents.
    public init(remoteFetch: RemoteFetch?, maxFileBytes: Int = DocumentReader.defaultMaxFileBytes) {
        self.remoteFetch = remoteFetch
        self.maxFileBytes = maxFileBytes
    }

    /// The same, with the remote fetch last (trailing closure).
    public init(maxFileBytes: Int, remoteFetch: @escaping RemoteFetch) {
        self.init(remoteFetch: remoteFetch, maxFileBytes: maxFileBytes)
    }

    /// The document's bytes, or nil when it does not exist.
    public func read(_ location: DocumentLocation) throws -> Data? {
        let (data, mapped) = try readUnlogged(location)
        readLog?.noteRead(location, digest: data.map { DocumentReadLog.digest($0, mapped: mapped) })
        return data
    }

    /// The digest of the document's bytes (``DocumentReadLog``), or nil when it does not exist.
    /// A large file is hashed through its mapping without staying in this process's memory.
    package func digest(_ location: DocumentLocation) throws -> UInt64? {
        let (data, mapped) = try readUnlogged(location)
        return data.map { DocumentReadLog.digest($0, mapped: mapped) }
    }

    /// The bytes, and whether they are a mapping of the file (``MappedFile``).
    private func readUnlogged(_ location: DocumentLocation) throws -> (data: Data?, mapped: Bool) {
        switch location {
        case .embedded(let name):
            return (EmbeddedData.file(named: name), false)
        case .file(let url):
            guard FileManager.default.fileExists(atPath: url.path) else { return (nil, false) }
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maxFileBytes {
                throw LoadError.unreadable(file: location.description, reason: "the file is \(size) bytes, more than the limit of \(maxFileBytes) bytes for a Photo Club Hub file")
            }
            do {
                if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
                   size >= MappedFile.threshold, let mapped = MappedFile.map(url) {
                    return (mapped, true)
                }
                return (try Data(contentsOf: url), false)
            } catch {
                throw LoadError.unreadable(file: location.description, reason: error.localizedDescription)
            }
        case .remote(let url):
            guard let remoteFetch else {
                throw LoadError.unreadable(file: location.description, reason: "remote documents are not enabled")
            }
            do {
                return (try remoteFetch(url), false)
            } catch let error as LoadError {
                throw error
            } catch {
                throw LoadError.unreadable(file: location.description, reason: error.localizedDescription)
            }
        }
    }

    /// The Level 2 files that sit in the same folder as `location` (none for remote folders,
    /// which cannot be listed).
    package func level2Files(besides location: DocumentLocation) -> [DocumentLocation] {
        let files = level2FilesUnlogged(besides: location)
        readLog?.noteListing(location, files)
        return files
    }

    private func level2FilesUnlogged(besides location: DocumentLocation) -> [DocumentLocation] {
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
