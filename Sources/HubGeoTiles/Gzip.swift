import CZlib

/// gzip (RFC 1952) of one buffer (CZlib): tiles in the PMTiles and MBTiles archives and the PMTiles
/// directories, which their readers expect compressed. A tile (up to 16 KiB) is compressed by hubgeo's
/// own deflate encoder, one block of fixed Huffman codes; larger buffers, and every decompression, by zlib.
package enum Gzip {
    package struct Failure: Error, CustomStringConvertible {
        var code: Int32
        package var description: String { "gzip failed (status \(code), a zlib error code)" }
    }

    /// `bytes` compressed: up to 16 KiB (a tile) at a `level` above 0, as one deflate block of
    /// fixed Huffman codes, in a tenth of zlib's time for 1 % more bytes (CZlib.c says why); larger
    /// buffers by zlib at `level` (0-9; 6 is zlib's default: tiles are written once and read many
    /// times, and the PMTiles and MBTiles tools compress at it too).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
        var capacity = hubgeo_gzip_bound(bytes.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                hubgeo_gzip(input.baseAddress, input.count, out.baseAddress, &capacity, level)
            }
        }
        guard status == 0 else { throw Failure(code: status) }
        output.removeSubrange(capacity...)
        return output
    }

    /// A compressor for many buffers, one after the other (one thread at a time): ``compress(_:level:)``'s
    /// bytes, with one state for all of them: the fixed-code encoder's hash table, and zlib's for
    /// larger buffers (zlib's allocations per buffer cost more than compressing a tile).
    package final class Compressor {
        private let stream: OpaquePointer
        private var output: [UInt8] = []

        package init(level: Int32 = 6) throws(Failure) {
            guard let stream = hubgeo_gzip_stream_create(level) else { throw Failure(code: -4) }
            self.stream = stream
        }

        deinit {
            hubgeo_gzip_stream_destroy(stream)
        }

        /// `bytes` gzip-compressed, as ``Gzip/compress(_:level:)`` gives them.
        package func compress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
            var capacity = hubgeo_gzip_bound(bytes.count)
            if output.count < capacity { output = [UInt8](repeating: 0, count: capacity) }
            let status = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    hubgeo_gzip_stream_compress(stream, input.baseAddress, input.count, out.baseAddress, &capacity)
                }
            }
            guard status == 0 else { throw Failure(code: status) }
            return Array(output[..<capacity])
        }
    }

    /// The bytes of a gzip (or zlib) stream.
    package static func decompress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var capacity = max(1024, bytes.count * 4)
        while true {
            var length = capacity
            var output = [UInt8](repeating: 0, count: capacity)
            let status = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    hubgeo_gunzip(input.baseAddress, input.count, out.baseAddress, &length)
                }
            }
            if status == 0 {
                output.removeSubrange(length...)
                return output
            }
            guard status == -5, capacity < 1 << 31 else { throw Failure(code: status) }
            capacity *= 4
        }
    }
}
