#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel

/// Where `-o PATH` sends output, written the way a careful user would by hand:
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
public final class OutputFile: ExportSink {
    /// How the output reaches its destination.
    enum Mode {
        /// An open descriptor written as it is (standard output, a device, a FIFO).
        case inPlace(closeWhenDone: Bool)
        /// A temporary file renamed over `destination` on commit.
        case replacing(temporaryPath: String, destination: String)
    }

    /// The path as given.
    public let path: String
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
        if let descriptor = Self.openDescriptorNamed(by: path) {
            fflush(nil)
            mode = .inPlace(closeWhenDone: false)
            sink = FileDescriptorSink(fileDescriptor: descriptor, format: format)
            return
        }
        let destination = try Self.resolveLinks(path)
        var status = stat()
        let exists = stat(destination, &status) == 0
        if !exists && errno != ENOENT { throw ExportError.system("write to", path: path) }
        try Self.refuseDatabaseFiles(path, destination: destination, status: exists ? status : nil, databases: protectedPaths)
        if exists {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFCHR, S_IFIFO:
                let descriptor = open(destination, O_WRONLY | O_TRUNC | O_CLOEXEC)
                guard descriptor >= 0 else { throw ExportError.system("open", path: path) }
                mode = .inPlace(closeWhenDone: true)
                sink = FileDescriptorSink(fileDescriptor: descriptor, format: format)
                return
            case S_IFDIR:
                throw ExportError("cannot write to \(path): it is a directory; give a file name")
            default:
                throw ExportError("cannot write to \(path): it is neither a regular file, a character device nor a FIFO")
            }
        }
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        Self.removeAbandoned(in: directory, name: url.lastPathComponent)
        // Registered before it exists, so that a signal at any moment finds it (mkstemp would name it only once made).
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var descriptor: Int32 = -1
        var temporaryPath = ""
        var slot: Int?
        for _ in 0..<100 {
            let random = String((0..<6).map { _ in letters.randomElement()! })
            temporaryPath = (directory as NSString).appendingPathComponent(".\(url.lastPathComponent).\(getpid()).hubgeo-\(random)")
            slot = TemporaryFiles.register(temporaryPath)
            descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            let error = errno
            if descriptor >= 0 { break }
            if let slot { TemporaryFiles.unregister(slot) }
            guard error == EEXIST else { throw ExportError.system("create a file in", path: directory, errno: error) }
        }
        guard descriptor >= 0 else { throw ExportError.system("create a file in", path: directory, errno: EEXIST) }
        temporarySlot = slot
        if exists {
            // The replaced file's permissions, and its owner and group where this user may set them.
            _ = fchown(descriptor, status.st_uid, status.st_gid)
            fchmod(descriptor, status.st_mode & 0o7777)
        } else {
            // Made 0600 (as mkstemp does) until this point; the mode a plain new file would have.
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        mode = .replacing(temporaryPath: temporaryPath, destination: destination)
        sink = FileDescriptorSink(fileDescriptor: descriptor)
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
                guard rename(temporaryPath, destination) == 0 else {
                    throw ExportError.system("rename \(temporaryPath) to", path: destination)
                }
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

    /// Removes the temporary files that writers of `name` in `directory` left when killed
    /// (``AbandonedFiles``): `.NAME.PID.hubgeo-XXXXXX`, and `.NAME.hubgeo-XXXXXX` from a hubgeo
    /// that did not put its PID in the name.
    static func removeAbandoned(in directory: String, name: String) {
        let prefix = ".\(name)."
        AbandonedFiles.sweep(in: directory, writer: { entry in
            guard entry.hasPrefix(prefix) else { return nil }
            let rest = entry.dropFirst(prefix.count)
            func isSuffix(_ text: Substring) -> Bool {  // six ASCII letters or digits
                text.hasPrefix("hubgeo-") && text.utf8.count == 13 && text.utf8.dropFirst(7).allSatisfy {
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                }
            }
            if isSuffix(rest) { return .unrecorded }
            let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let pid = pid_t(parts[0]), isSuffix(parts[1]) else { return nil }
            return .process(pid)
        }, remove: { unlink($0) })
    }

    /// Throws when `destination` (reached from `path`, `status` when it exists) is one of
    /// `databases` or a file SQLite keeps beside one (``DatabaseFile/companionPaths(of:)``): the
    /// same file under any name, or the companion's name even before the companion exists.
    static func refuseDatabaseFiles(_ path: String, destination: String, status: stat?, databases: [String]) throws {
        func isFile(_ other: String) -> Bool {
            guard let status else { return false }
            var otherStatus = stat()
            return stat(other, &otherStatus) == 0 && otherStatus.st_dev == status.st_dev && otherStatus.st_ino == status.st_ino
        }
        let name = canonicalName(destination)
        for database in databases {
            if isFile(database) {
                let alias = database == path ? "" : " (\(database))"
                throw ExportError("\(path) is the database being read\(alias); write the output to another file")
            }
            for companion in DatabaseFile.companionPaths(of: database) where isFile(companion.path) || canonicalName(companion.path) == name {
                let alias = companion.path == path ? "" : " (\(companion.path))"
                throw ExportError("\(path) is the \(companion.role) of the database being read\(alias): SQLite takes the file "
                                  + "of that name as part of \(database); write the output to another file")
            }
        }
    }

    /// `path` with its folder's symbolic links and `.`/`..` resolved (its last component as it is).
    static func canonicalName(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        guard let resolved = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
        defer { free(resolved) }
        return (String(cString: resolved) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    /// The descriptor that `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`
    /// (or `/proc/PID/fd/N` of this process) names, when it is open; nil for any other path.
    static func openDescriptorNamed(by path: String) -> Int32? {
        let number: Int32?
        switch path {
        case "-", "/dev/stdout": number = 1
        case "/dev/stderr": number = 2
        default:
            let prefixes = ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"]
            number = prefixes.first(where: path.hasPrefix).flatMap { Int32(path.dropFirst($0.count)) }
        }
        guard let number, number >= 0, path == "-" || fcntl(number, F_GETFD) != -1 else { return nil }
        return number
    }

    /// `path` with every symbolic link in its last component followed (a dangling link is
    /// refused: there is no file to replace and no sure place for a new one).
    package static func resolveLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw ExportError.system("read the link", path: current) }
            let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let next = target.hasPrefix("/") ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
            if stat(next, &status) != 0 && errno == ENOENT && lstat(next, &status) != 0 {
                throw ExportError("cannot write to \(path): it is a symbolic link to \(target), which does not exist")
            }
            current = next
        }
        throw ExportError("cannot write to \(path): too many levels of symbolic links")
    }
}
