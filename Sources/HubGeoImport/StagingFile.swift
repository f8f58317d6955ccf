import Foundation
import HubGeoDatabase
import HubGeoModel

/// The private file a new database is built in, beside its final name: `.NAME.PID.RANDOM.staging`.
/// Removing it removes only what this process made. Staging files of processes that no longer
/// run (killed during a first import) are removed when the next one starts (``AbandonedFiles``).
struct StagingFile {
    let path: String

    init(beside target: String) throws {
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        try OrganizationStore.createDirectory(containing: target)
        Self.removeAbandoned(in: directory, name: name)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        path = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).\(random).staging"
    }

    func flush() throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    func remove() {
        Importer.removeDatabaseFiles(path)
    }

    /// Removes the staging files of imports that no longer run (``AbandonedFiles``), with their journals.
    private static func removeAbandoned(in directory: String, name: String) {
        let prefix = ".\(name)."
        AbandonedFiles.sweep(in: directory, writer: { entry in
            guard entry.hasPrefix(prefix), entry.hasSuffix(".staging") else { return nil }
            let parts = entry.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let pid = pid_t(parts[0]) else { return nil }
            return .process(pid)
        }, remove: Importer.removeDatabaseFiles)
    }
}
