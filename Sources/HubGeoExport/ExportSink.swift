#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HubGeoOutput

/// Where an exporter writes its text, piece by piece: the writers hand over UTF-8 bytes in
/// pieces of about `ExportSinks/chunkSize`.
public protocol ExportSink: AnyObject {
    /// Writes `text` (UTF-8).
    func write(_ text: String) throws
    /// Writes UTF-8 bytes. The default implementation decodes them and calls `write(_:)`.
    func write(bytes: UnsafeRawBufferPointer) throws
}

extension ExportSink {
    /// Writes the bytes as UTF-8 text (a sink may write them more directly).
    public func write(bytes: UnsafeRawBufferPointer) throws {
        try write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Sizes the exporters share.
package enum ExportSinks {
    /// A writer hands its buffer to the sink once it holds this many bytes.
    package static let chunkSize = 64 * 1024
}

/// Collects everything written, for tests and for small outputs.
public final class StringSink: ExportSink {
    /// Everything written so far.
    public private(set) var text = ""

    /// An empty sink.
    public init() {}

    /// Appends `text`.
    public func write(_ text: String) throws {
        self.text += text
    }

    /// Appends the bytes, which are UTF-8.
    public func write(bytes: UnsafeRawBufferPointer) throws {
        text += String(decoding: bytes, as: UTF8.self)
    }
}

extension FileDescriptorSink: ExportSink {}
extension OutputFile: ExportSink {}
