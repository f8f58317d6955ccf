import HubGeoTestSupport
import HubGeoTiles
import Testing

/// The tiles' gzip: small buffers as one block of fixed Huffman codes (hubgeo's own encoder),
/// larger ones by zlib; zlib's inflate reads both back exactly.
@Suite("Gzip of tiles")
struct GzipTests {
    /// Buffers of every kind the encoder meets at its edges: empty, one to three bytes, runs (a
    /// match at distance 1), short periods, random bytes (9 bits a literal, the worst case), and
    /// sizes around the 16 KiB where zlib takes over.
    static func buffers() -> [[UInt8]] {
        var random = SplitMix64(seed: 21)
        var buffers: [[UInt8]] = [[], [7], [1, 2], [1, 2, 3], [UInt8](repeating: 0, count: 40_000)]
        for size in [4, 100, 275, 1_000, 16_383, 16_384, 16_385, 70_000] {
            buffers.append((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
            buffers.append((0..<size).map { index in Array("clusters\u{0}abcab".utf8)[index % 14] })
            buffers.append((0..<size).map { _ in UInt8.random(in: 0...3, using: &random) })
        }
        return buffers
    }

    @Test func everyBufferComesBackExactly() throws {
        let compressor = try Gzip.Compressor()
        for buffer in Self.buffers() {
            let compressed = try compressor.compress(buffer)
            #expect(compressed.starts(with: [0x1F, 0x8B, 8]), "a gzip member")
            #expect(try Gzip.decompress(compressed) == buffer, "\(buffer.count) bytes")
            #expect(try Gzip.compress(buffer) == compressed, "the one-shot compressor writes the same bytes")
            // The first block's header: BFINAL, then BTYPE 01 (fixed codes) up to 16 KiB, 10 (zlib's
            // dynamic codes) or 00 (stored) above.
            let blockType = (compressed[10] >> 1) & 3
            if buffer.count <= 16 << 10 {
                #expect(blockType == 1, "\(buffer.count) bytes: fixed codes")
            } else {
                #expect(blockType != 1, "\(buffer.count) bytes: zlib")
            }
        }
    }

    @Test func aTileSizedBufferShrinksAsItWouldWithZlib() throws {
        // A tile's protobuf repeats its keys and values: fixed codes still find those matches.
        let tile = (0..<300).flatMap { index in Array("\u{1A}\u{8}clusters\u{12}\u{4}name\(index % 9)".utf8) }.prefix(3_000)
        let compressed = try Gzip.compress(Array(tile))
        #expect(compressed.count < tile.count / 4, "\(compressed.count) bytes of \(tile.count)")
    }
}
