#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HubGeoDatabase
import HubGeoJSON
import HubGeoModel

/// Where an exporter writes its text, piece by piece: the writers hand over UTF-8 bytes in
/// pieces of about ``ExportSinks/chunkSize``.
public protocol ExportSink: AnyObject {
    func write(_ text: String) throws
    /// Writes UTF-8 bytes. The default implementation decodes them and calls `write(_:)`.
    func write(bytes: UnsafeRawBufferPointer) throws
}

extension ExportSink {
    public func write(bytes: UnsafeRawBufferPointer) throws {
        try write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Sizes the exporters share.
package enum ExportSinks {
    /// A writer hands its buffer to the sink once it holds this many bytes.
    public static let chunkSize = 64 * 1024
}

/// Collects everything written, for tests and for small outputs.
public final class StringSink: ExportSink {
    public private(set) var text = ""

    public init() {}

    public func write(_ text: String) throws {
        self.text += text
    }

    public func write(bytes: UnsafeRawBufferPointer) throws {
        text += String(decoding: bytes, as: UTF8.self)
    }
}

/// An error writing export output.
public struct ExportError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    static func system(_ what: String, path: String? = nil, errno code: Int32 = errno) -> ExportError {
        let reason = String(cString: strerror(code))
        return ExportError(path.map { "cannot \(what) \($0): \(reason)" } ?? "cannot \(what): \(reason)")
    }
}

/// Writes to a file descriptor through a fixed-size buffer: memory stays the same whatever
/// the amount written.
package final class FileDescriptorSink: ExportSink {
    public let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(fileDescriptor: Int32, bufferSize: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.capacity = max(bufferSize, 1)
        buffer.reserveCapacity(capacity)
    }

    /// Standard output.
    public static func standardOutput() -> FileDescriptorSink { FileDescriptorSink(fileDescriptor: 1) }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    public func write(bytes: UnsafeRawBufferPointer) throws {
        if buffer.isEmpty && bytes.count >= capacity {
            try writeAll(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out whatever the buffer holds.
    public func flush() throws {
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        let total = bytes.count
        while written < total {
            let result = systemWrite(fileDescriptor, bytes.baseAddress! + written, total - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw ExportError.system("write output")
            }
            written += result
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
