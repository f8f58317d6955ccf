#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import Foundation
import HubGeoModel

/// An output that its writer builds at a path of its own, published as ``OutputFile`` publishes a
/// stream of bytes (``OutputTarget``'s rules): SQLite writing an MBTiles archive, a folder of tiles.
///
/// The writer writes at ``workPath``, a private file or folder (`.NAME.PID.hubgeo-XXXXXX`) made
/// beside the target before any work, with the mode the finished output will have; ``commit()``
/// renames it into place unless SIGINT or SIGTERM arrived. A file output to a character device, a
/// FIFO or an open descriptor is built in `$TMPDIR` instead, and its finished bytes are written into
/// the node, which is never replaced.
///
/// A private file is registered with ``TemporaryFiles``, so that SIGINT or SIGTERM removes it even
/// at the second signal. A private folder is not: removing a tree takes directory reads and
/// allocations that a signal handler may not make. A first signal stops the writer (``Interruption``)
/// and ``abandon()`` removes the folder; a folder left by a second signal or SIGKILL is removed by
/// the next write to the same name (``AbandonedFiles``), through `removeFolder`, which removes only
/// what its writer makes.
package final class StagedOutput {
    /// The path as given.
    package let path: String
    /// Where the writer builds the output.
    package let workPath: String
    /// The file or folder the output replaces or makes (links followed); nil for a node or stream.
    package var destination: String? {
        if case .replaced(let destination, _) = place { return destination }
        return nil
    }
    private let kind: OutputTarget.Kind
    private let place: OutputTarget.Place
    /// The descriptor of a node or stream the finished bytes go to.
    private var node: (descriptor: Int32, close: Bool)?
    private var slot: Int?
    private let removeFolder: (String) -> Void
    private var isDone = false

    /// Checks `path` as an output of `kind` (refusing `protectedPaths` and their SQLite companions)
    /// and makes the private file or folder to build it in; `removeFolder` removes a folder its
    /// writer made (its own, a replaced one, one a killed writer left).
    package init(path: String, kind: OutputTarget.Kind, protecting protectedPaths: [String],
                 removeFolder: @escaping (String) -> Void = { _ in }) throws {
        self.path = path
        self.kind = kind
        self.removeFolder = removeFolder
        let target = try OutputTarget(path: path, kind: kind, protecting: protectedPaths)
        place = target.place
        var opened: (descriptor: Int32, close: Bool)?
        switch target.place {
        case .openDescriptor(let descriptor):
            opened = (descriptor, false)
        case .node(let device):
            let descriptor = open(device, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw ExportError.system("open", path: path) }
            opened = (descriptor, true)
        case .replaced:
            break
        }
        let temporary: (path: String, slot: Int?, descriptor: Int32)
        do {
            temporary = try target.makeTemporary(kind, removeFolder: removeFolder)
        } catch {
            if let opened, opened.close { close(opened.descriptor) }
            throw error
        }
        if temporary.descriptor >= 0 { close(temporary.descriptor) }
        workPath = temporary.path
        slot = temporary.slot
        node = opened
    }

    deinit {
        abandon()
    }

    /// Publishes what the writer built at ``workPath``: renamed over the target (a folder swapped
    /// with the one it replaces, which `removeFolder` then removes), or its bytes written into the
    /// node. Throws ``Interrupted`` once SIGINT or SIGTERM arrived, publishing nothing.
    package func commit() throws {
        guard !isDone else { throw ExportError("\(path) was already closed") }
        do {
            switch place {
            case .openDescriptor, .node:
                try Interruption.check()
                try copyIntoNode()
                abandon()
            case .replaced(let destination, let existing):
                if kind == .file { try sync(workPath) }
                let swapping = kind == .folder && existing != nil
                try OutputTarget.publish(workPath, to: destination, swappingFolder: swapping)
                forgetSlot()
                isDone = true
                var status = hubgeo_file_status()
                if swapping && hubgeo_lstat(workPath, &status) == 0 { removeFolder(workPath) }  // the replaced folder
            }
        } catch {
            abandon()
            throw error
        }
    }

    /// Stops: the private file or folder is removed, and the target is as it was (bytes already
    /// written into a node stay written).
    package func abandon() {
        guard !isDone else { return }
        isDone = true
        if kind == .file { unlink(workPath) } else { removeFolder(workPath) }
        forgetSlot()
        if let node, node.close { close(node.descriptor) }
        node = nil
    }

    private func forgetSlot() {
        if let slot { TemporaryFiles.unregister(slot) }
        slot = nil
    }

    private func sync(_ file: String) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.system("sync", path: file) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ExportError.system("sync", path: file) }
    }

    /// Writes the finished file's bytes into the node (``WriteAll``).
    private func copyIntoNode() throws {
        guard let node else { return }
        let source = open(workPath, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw ExportError.system("read", path: workPath) }
        defer { close(source) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ExportError.system("read", path: workPath) }
            if count == 0 { break }
            let failure = buffer.withUnsafeBytes { WriteAll.write(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: node.descriptor) }
            guard failure == 0 else { throw ExportError.system("write to", path: path, errno: failure) }
        }
        if node.close {
            self.node = nil
            guard close(node.descriptor) == 0 else { throw ExportError.system("close", path: path) }
        }
    }
}
