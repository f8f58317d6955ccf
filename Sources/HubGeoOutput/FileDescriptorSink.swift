#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIX
import Foundation
import HubGeoModel

/// Writes to a file descriptor through a fixed-size buffer: memory stays the same whatever
/// the amount written.
///
/// Text of a known `format` written where a GitHub Actions log may read it (`GITHUB_ACTIONS=true`,
/// and a descriptor that is not a regular file: standard output piped to the runner, not
/// redirected to a file) is escaped in its own syntax, whole lines at a time, so that no line holds
/// a workflow command whatever the data (``WorkflowCommandSafe/escaped(_:as:)``).
package final class FileDescriptorSink {
    package let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The escape for a GitHub Actions log, when this descriptor may be one.
    private let logFormat: WorkflowCommandSafe.Format?

    package init(fileDescriptor: Int32, bufferSize: Int = 64 * 1024, format: WorkflowCommandSafe.Format? = nil) {
        self.fileDescriptor = fileDescriptor
        self.capacity = max(bufferSize, 1)
        self.logFormat = format.flatMap { Self.mayBeActionsLog(fileDescriptor) ? $0 : nil }
        buffer.reserveCapacity(capacity)
    }

    /// Standard output, holding text of `format` (escaped where a GitHub Actions log may read it).
    package static func standardOutput(format: WorkflowCommandSafe.Format? = nil) -> FileDescriptorSink {
        FileDescriptorSink(fileDescriptor: 1, format: format)
    }

    /// True in GitHub Actions for a descriptor that is not a regular file.
    static func mayBeActionsLog(_ descriptor: Int32) -> Bool {
        guard ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" else { return false }
        var status = hubgeo_file_status()
        return hubgeo_fstat(descriptor, &status) != 0 || status.mode & S_IFMT != S_IFREG
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try drain(final: false) }
    }

    public func write(bytes: UnsafeRawBufferPointer) throws {
        if buffer.isEmpty && bytes.count >= capacity && logFormat == nil {
            try writeAll(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try drain(final: false) }
    }

    /// Writes out whatever the buffer holds (the end of the output: callers flush when done).
    public func flush() throws {
        try drain(final: true)
    }

    /// Writes the buffer out; when escaping for a log, only its complete lines unless `final`, so
    /// that no marker is split between two escapes.
    private func drain(final: Bool) throws {
        guard let logFormat else {
            try buffer.withUnsafeBytes { try writeAll($0) }
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let end = final ? buffer.count : (buffer.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }).map { $0 + 1 } ?? 0)
        guard end > 0 else { return }
        let escaped = WorkflowCommandSafe.escaped(String(decoding: buffer[0..<end], as: UTF8.self), as: logFormat)
        try Array(escaped.utf8).withUnsafeBytes { try writeAll($0) }
        buffer.removeFirst(end)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        let failure = WriteAll.write(bytes, to: fileDescriptor)
        if failure != 0 { throw ExportError.system("write output", errno: failure) }
    }
}
