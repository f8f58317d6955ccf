#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import Foundation
import HubGeoModel

/// What `-o PATH` names, found and checked before any work, and the rules every output of hubgeo
/// is published by (``OutputFile`` for a stream of bytes, ``StagedOutput`` for a writer that needs a
/// path of its own: SQLite building an MBTiles archive, a folder of tiles).
///
/// - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` name an open descriptor,
///   written as it is (a file output only).
/// - A character device or a FIFO is written in place, never replaced (a file output only).
/// - A regular file, a folder (for a folder output) or a new name is built under a private name
///   beside it, `.NAME.PID.hubgeo-XXXXXX`, registered for SIGINT and SIGTERM (``TemporaryFiles``)
///   before it exists, swept by the next write to the same name once its writer is gone
///   (``AbandonedFiles``), and renamed into place only when complete, unless SIGINT or SIGTERM
///   arrived (``Interruption``).
/// - Refused before any work: a directory at a file output, anything but a folder at a folder
///   output, a block device or a socket, and any path that is one of the protected databases or one
///   of the files SQLite keeps beside one (``SQLiteCompanions``), whatever name reaches it.
package struct OutputTarget {
    /// What the output is.
    package enum Kind: Sendable {
        /// One file (an export, a map page, a PMTiles or MBTiles archive).
        case file
        /// A folder of files (a z/x/y tile folder).
        case folder
    }

    /// Where the output goes.
    package enum Place {
        /// An already open descriptor (standard output, `/dev/fd/N`): written, never closed.
        case openDescriptor(Int32)
        /// A character device or FIFO at this path: opened and written in place.
        case node(String)
        /// A regular file or folder at this path (`existing` its status when it exists), replaced whole.
        case replaced(String, existing: hubgeo_file_status?)
    }

    /// The path as given.
    package let path: String
    /// Where the output goes.
    package let place: Place

    /// Finds and checks what `path` names as an output of `kind`; throws ``ExportError`` naming it
    /// when it cannot be one, or when it is one of `protectedPaths` or their SQLite companions.
    package init(path: String, kind: Kind, protecting protectedPaths: [String]) throws {
        self.path = path
        if kind == .file, let descriptor = Self.openDescriptorNamed(by: path) {
            place = .openDescriptor(descriptor)
            return
        }
        let destination = try Self.resolveLinks(path)
        var status = hubgeo_file_status()
        let exists = hubgeo_stat(destination, &status) == 0
        if !exists && errno != ENOENT { throw ExportError.system("write to", path: path) }
        try Self.refuseDatabaseFiles(path, destination: destination, status: exists ? status : nil, databases: protectedPaths)
        guard exists else {
            place = .replaced(destination, existing: nil)
            return
        }
        switch (kind, status.mode & S_IFMT) {
        case (.file, S_IFREG), (.folder, S_IFDIR):
            place = .replaced(destination, existing: status)
        case (.file, S_IFCHR), (.file, S_IFIFO):
            place = .node(destination)
        case (.file, S_IFDIR):
            throw ExportError("cannot write to \(path): it is a directory; give a file name")
        case (.folder, _):
            throw ExportError("cannot write a folder at \(path): it exists and is not a folder")
        default:
            throw ExportError("cannot write to \(path): it is neither a regular file, a character device nor a FIFO")
        }
    }

    /// The folder a writer's private files go in: beside a replaced file, else `$TMPDIR` (a device's
    /// folder, `/dev`, is no place for them).
    package var workingDirectory: String {
        guard case .replaced(let destination, _) = place else { return ScratchFile.defaultDirectory }
        return Self.split(destination).folder
    }

    /// The name the private files are named after: the destination's, or the device's.
    var name: String {
        switch place {
        case .openDescriptor(let descriptor): return "fd\(descriptor)"
        case .node(let path), .replaced(let path, _): return Self.split(path).name
        }
    }

    /// Makes the private file (or folder) for this output in ``workingDirectory``, named
    /// `.NAME.PID.hubgeo-XXXXXX` and registered with ``TemporaryFiles`` before it exists, so that a
    /// signal at any moment finds it; swept first: the private files that killed writers of the same
    /// name left. A file is made with the mode (and owner, where allowed) of the file it replaces,
    /// else `0666 & ~umask`, as a plain new file; a folder likewise from `0777`. Returns its path,
    /// its slot and, for a file, its open descriptor (-1 for a folder).
    package func makeTemporary(_ kind: Kind, removeFolder: (String) -> Void = { _ in }) throws -> (path: String, slot: Int?, descriptor: Int32) {
        let directory = workingDirectory
        Self.removeAbandoned(in: directory, name: name, kind: kind, removeFolder: removeFolder)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let random = String((0..<6).map { _ in letters.randomElement()! })
            let path = Self.join(directory, ".\(name).\(getpid()).hubgeo-\(random)")
            // A folder is not registered: the signal handler can only unlink(2) (see StagedOutput).
            let slot = kind == .file ? TemporaryFiles.register(path) : nil
            let descriptor = kind == .file ? open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) : -1
            let made = kind == .file ? descriptor >= 0 : mkdir(path, 0o700) == 0
            let error = errno
            if !made {
                if let slot { TemporaryFiles.unregister(slot) }
                guard error == EEXIST else { throw ExportError.system("create a \(kind == .file ? "file" : "folder") in", path: directory, errno: error) }
                continue
            }
            let mask = umask(0)
            umask(mask)
            if case .replaced(_, let existing?) = place {
                // The replaced file's permissions, and its owner and group where this user may set them.
                if kind == .file {
                    _ = fchown(descriptor, existing.uid, existing.gid)
                    fchmod(descriptor, existing.mode & 0o7777)
                } else {
                    _ = chown(path, existing.uid, existing.gid)
                    chmod(path, existing.mode & 0o7777)
                }
            } else {
                // Made private until this point; the mode a plain new file or folder would have.
                if kind == .file { fchmod(descriptor, 0o666 & ~mask) } else { chmod(path, 0o777 & ~mask) }
            }
            return (path, slot, descriptor)
        }
        throw ExportError.system("create a \(kind == .file ? "file" : "folder") in", path: directory, errno: EEXIST)
    }

    /// Renames `temporary` over `destination`, unless SIGINT or SIGTERM arrived: then it throws
    /// ``Interrupted`` and publishes nothing. SIGINT and SIGTERM are blocked in this thread from the
    /// check to the rename, so that the handler cannot run here between them; one delivered to
    /// another thread in that instant comes after a rename that is then under way. A folder replacing
    /// a folder is swapped with it in one step (`renameat2(RENAME_EXCHANGE)` where the system has it):
    /// the replaced folder is then at `temporary`, for the caller to remove.
    package static func publish(_ temporary: String, to destination: String, swappingFolder: Bool = false) throws {
        try whileSignalsBlocked {
            try Interruption.check()
            if swappingFolder, let exchange = renameExchange {
                guard exchange(AT_FDCWD, temporary, AT_FDCWD, destination, 2 /* RENAME_EXCHANGE */) == 0 else {
                    throw ExportError.system("replace \(destination) with", path: temporary)
                }
                return
            }
            guard rename(temporary, destination) == 0 else { throw ExportError.system("rename \(temporary) to", path: destination) }
        }
    }

    /// Runs `body` with SIGINT and SIGTERM blocked in this thread (held pending, delivered after).
    package static func whileSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var previous = hubgeo_signal_mask()
        hubgeo_signals_block([SIGINT, SIGTERM], 2, &previous)
        defer { hubgeo_signals_restore(&previous) }
        return try body()
    }

    /// Linux's `renameat2`, which the Glibc module does not declare (glibc 2.28 and later export it).
    private static let renameExchange: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Removes the private files (or folders, through `removeFolder`) that writers of `name` in
    /// `directory` left when killed (``AbandonedFiles``): `.NAME.PID.hubgeo-XXXXXX`, and
    /// `.NAME.hubgeo-XXXXXX` from a hubgeo that did not put its PID in the name.
    static func removeAbandoned(in directory: String, name: String, kind: Kind, removeFolder: (String) -> Void) {
        let prefix = ".\(name)."
        AbandonedFiles.sweep(in: directory, folders: kind == .folder, writer: { entry in
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
        }, remove: { path in
            if kind == .file { unlink(path) } else { removeFolder(path) }
        })
    }

    /// Throws when `destination` (reached from `path`, `status` when it exists) is one of
    /// `databases` or a file SQLite keeps beside one (``SQLiteCompanions/paths(of:)``): the
    /// same file under any name, or the companion's name even before the companion exists.
    static func refuseDatabaseFiles(_ path: String, destination: String, status: hubgeo_file_status?, databases: [String]) throws {
        func isFile(_ other: String) -> Bool {
            guard let status else { return false }
            var otherStatus = hubgeo_file_status()
            return hubgeo_stat(other, &otherStatus) == 0 && otherStatus.device == status.device && otherStatus.inode == status.inode
        }
        let name = canonicalName(destination)
        for database in databases {
            if isFile(database) {
                let alias = database == path ? "" : " (\(database))"
                throw ExportError("\(path) is the database being read\(alias); write the output to another file")
            }
            for companion in SQLiteCompanions.paths(of: database) where isFile(companion.path) || canonicalName(companion.path) == name {
                let alias = companion.path == path ? "" : " (\(companion.path))"
                throw ExportError("\(path) is the \(companion.role) of the database being read\(alias): SQLite takes the file "
                                  + "of that name as part of \(database); write the output to another file")
            }
        }
    }

    /// The folder of `path` ("." for a bare name) and its last component (trailing slashes ignored).
    /// Split by hand: Foundation's `NSString.deletingLastPathComponent` traps on a one-letter
    /// relative name (`-o t`, swift-corelibs-foundation of Swift 6.3, measured).
    static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let folder = trimmed[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// `name` inside `folder`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `path` with its folder's symbolic links and `.`/`..` resolved (its last component as it is).
    static func canonicalName(_ path: String) -> String {
        let (folder, name) = split(path)
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        return join(String(cString: resolved), name)
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
            var status = hubgeo_file_status()
            guard hubgeo_lstat(current, &status) == 0, status.mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw ExportError.system("read the link", path: current) }
            let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let next = target.hasPrefix("/") ? target
                : join(split(current).folder, target)
            if hubgeo_stat(next, &status) != 0 && errno == ENOENT && hubgeo_lstat(next, &status) != 0 {
                throw ExportError("cannot write to \(path): it is a symbolic link to \(target), which does not exist")
            }
            current = next
        }
        throw ExportError("cannot write to \(path): too many levels of symbolic links")
    }
}
