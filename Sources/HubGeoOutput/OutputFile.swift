#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HubGeoModel

/// Where `-o PATH` sends output, written the way a careful user would by hand. With
/// `StagedOutput` (for writers that need a path of their own), the one publisher of hubgeo's
/// outputs: both follow `OutputTarget`'s rules.
///
/// - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` write to that open
///   descriptor, as `cat > /dev/stdout` does: no file is created, renamed or truncated.
/// - A regular file (or a new name) is written under a temporary name beside it
///   (`.NAME.PID.hubgeo-XXXXXX`) and renamed into place only when complete (``commit()``): a failed
///   or interrupted run leaves the old file as it was. SIGINT and SIGTERM remove the temporary
///   file (`TemporaryFiles`); one left by a killed writer is removed by the next write to the
///   same name (`AbandonedFiles`). The new file keeps the replaced file's permissions (and
///   owner, where allowed). A symbolic link is followed, as `cp` does: its target is replaced,
///   the link stays.
/// - Anything else that is not a regular file (a character device such as `/dev/null`, a FIFO) is
///   opened and written in place, as `cat > FILE` would: it is never replaced.
/// - A directory, a block device or a socket is refused, and so is any path that is one of
///   `protectedPaths` (the database being read) or one of the files SQLite keeps beside it
///   (`-wal`, `-shm`, `-journal`), whatever name reaches it, and by name before the file exists.
public final class OutputFile {
    /// How the output reaches its destination.
    enum Mode {
        /// An open descriptor written as it is (standard output, a device, a FIFO).
        case inPlace(closeWhenDone: Bool)
        /// A temporary file renamed over `destination` on commit.
        case replacing(temporaryPath: String, destination: String)
    }

    /// The path as given.
    public let path: String
    /// Where a writer's own scratch files go: beside a replaced file, else `$TMPDIR`.
    package let workingDirectory: String
    let mode: Mode
    private let sink: FileDescriptorSink
    private var isOpen = true
    private var isCommitted = false
    /// Where ``TemporaryFiles`` keeps the temporary file's path for a signal handler.
    private var temporarySlot: Int?

    /// True when the output goes to an already open descriptor (`-`, `/dev/stdout`, ...).
    public var isStandardStream: Bool {
        if case .inPlace(closeWhenDone: false) = mode { return true }
        return false
    }

    /// Opens `path` for output; `-` is standard output. Throws ``ExportError`` naming the path when
    /// it cannot be written, or when it is one of `protectedPaths` or their SQLite companions.
    public convenience init(path: String, protecting protectedPaths: [String] = []) throws {
        try self.init(path: path, protecting: protectedPaths, format: nil)
    }

    /// As ``init(path:protecting:)``; `format` is the text's, for output written in place (standard
    /// output, a device, a FIFO), which a GitHub Actions log may read (``FileDescriptorSink``).
    package init(path: String, protecting protectedPaths: [String], format: WorkflowCommandSafe.Format?) throws {
        self.path = path
        let target = try OutputTarget(path: path, kind: .file, protecting: protectedPaths)
        workingDirectory = target.workingDirectory
        switch target.place {
        case .openDescriptor(let descriptor):
            fflush(nil)
            mode = .inPlace(closeWhenDone: false)
            sink = FileDescriptorSink(fileDescriptor: descriptor, format: format)
        case .node(let node):
            let descriptor = open(node, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw ExportError.system("open", path: path) }
            mode = .inPlace(closeWhenDone: true)
            sink = FileDescriptorSink(fileDescriptor: descriptor, format: format)
        case .replaced(let destination, _):
            let temporary = try target.makeTemporary(.file)
            temporarySlot = temporary.slot
            mode = .replacing(temporaryPath: temporary.path, destination: destination)
            sink = FileDescriptorSink(fileDescriptor: temporary.descriptor)
        }
    }

    deinit {
        abandon()
    }

    /// Writes `text` (UTF-8).
    public func write(_ text: String) throws {
        try sink.write(text)
    }

    /// Writes the bytes.
    public func write(bytes: UnsafeRawBufferPointer) throws {
        try sink.write(bytes: bytes)
    }

    /// Writes out what is buffered; a replaced file is synced and renamed into place.
    public func commit() throws {
        guard isOpen else { throw ExportError("\(path) was already closed") }
        do {
            try sink.flush()
            switch mode {
            case .inPlace(let closeWhenDone):
                isOpen = false
                if closeWhenDone {
                    guard close(sink.fileDescriptor) == 0 else { throw ExportError.system("close", path: path) }
                }
            case .replacing(let temporaryPath, let destination):
                guard fsync(sink.fileDescriptor) == 0 else { throw ExportError.system("sync", path: temporaryPath) }
                isOpen = false
                guard close(sink.fileDescriptor) == 0 else { throw ExportError.system("close", path: temporaryPath) }
                try OutputTarget.publish(temporaryPath, to: destination)
                forgetTemporaryFile()
            }
            isCommitted = true
        } catch {
            abandon()
            throw error
        }
    }

    /// Stops writing. A file being replaced is left as it was and the temporary file removed;
    /// output already written in place stays written.
    public func abandon() {
        if isOpen {
            if case .inPlace(closeWhenDone: false) = mode {
                try? sink.flush()
            } else {
                close(sink.fileDescriptor)
            }
            isOpen = false
        }
        if !isCommitted, case .replacing(let temporaryPath, _) = mode {
            unlink(temporaryPath)
            forgetTemporaryFile()
            isCommitted = true  // removed once
        }
    }

    private func forgetTemporaryFile() {
        if let slot = temporarySlot { TemporaryFiles.unregister(slot) }
        temporarySlot = nil
    }
}
