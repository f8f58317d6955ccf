#if canImport(Glibc)
import Glibc
#endif

/// A file without a name for data that does not fit in memory while it is put in order: made
/// with `mkstemp(3)` in a directory and unlinked at once, so that nothing is left behind whatever
/// happens to the process. Bytes are appended and read back by offset.
package final class ScratchFile {
    /// Where the file was made, for messages.
    package let directory: String
    private let descriptor: Int32
    /// The bytes appended so far.
    package private(set) var size: Int = 0

    /// Whether the directory is the default one (its errors then say how to choose another).
    private let isDefaultDirectory: Bool

    /// A scratch file in `directory`; without one, in `$TMPDIR`, else `/tmp` (as sort(1) does).
    package init(in directory: String? = nil) throws(ScratchFileError) {
        self.directory = directory ?? Self.defaultDirectory
        isDefaultDirectory = directory == nil
        var template = Array((self.directory + "/.hubgeo-scratch-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ScratchFileError(action: "create", directory: self.directory, code: errno, isDefaultDirectory: isDefaultDirectory)
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// `$TMPDIR` when it is set and not empty, else `/tmp`.
    package static var defaultDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// Appends `bytes`; returns the offset they start at.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(ScratchFileError) -> Int {
        let offset = size
        let failure = WriteAll.write(bytes, to: descriptor)
        guard failure == 0 else {
            throw ScratchFileError(action: "write", directory: directory, code: failure, isDefaultDirectory: isDefaultDirectory)
        }
        size += bytes.count
        return offset
    }

    /// Fills `memory` with the bytes from `offset`.
    package func read(into memory: UnsafeMutableRawBufferPointer, at offset: Int) throws(ScratchFileError) {
        var done = 0
        while done < memory.count {
            let result = pread(descriptor, memory.baseAddress! + done, memory.count - done, off_t(offset + done))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                throw ScratchFileError(action: "read", directory: directory, code: result < 0 ? errno : EIO, isDefaultDirectory: isDefaultDirectory)
            }
            done += result
        }
    }
}

/// A scratch file that could not be made, written or read back.
package struct ScratchFileError: Error, CustomStringConvertible {
    package var action: String
    package var directory: String
    package var code: Int32
    /// Whether the directory came from `$TMPDIR` or `/tmp`: the message then says how to choose another.
    package var isDefaultDirectory: Bool

    package var description: String {
        "cannot \(action) a scratch file in \(directory)\(isDefaultDirectory ? " (set TMPDIR to use another directory)" : ""): "
            + String(cString: strerror(code))
    }
}
