#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HubGeoModel
import HubGeoOutput

/// Writes a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
/// the 127-byte header, the root directory, the metadata JSON, the leaf directories and the tile
/// data, with MVT tiles and directories gzip-compressed.
///
/// Tiles come in tile id order (each zoom in PMTiles order, zooms ascending), so the data is
/// clustered. Identical tiles are stored once (found by a hash of their bytes, confirmed byte for
/// byte), and a run of consecutive tile ids with the same data is one entry with a run length.
/// The data goes to an unnamed scratch file beside the output while the tiles come, since the
/// directories that precede it are known only at the end; ``finish(_:)`` then writes the whole
/// archive to the output (``OutputFile``), which publishes it.
public final class PMTilesWriter: TileArchiveWriter {
    private let output: OutputFile
    private let scratch: ScratchFile
    private var buffer: [UInt8] = []
    private var written: UInt64 = 0
    /// The entries before the last one, packed, and the last one, whose run may grow.
    private var entries = PMTilesDirectory.EntryList()
    private var lastEntry: PMTilesDirectory.Entry?
    /// The distinct tile data stored, as a hash table of slots holding its offset + 1 (above bit 24; 0:
    /// an empty slot) and 24 bits of its hash, at most three quarters full (the data's own bytes confirm a
    /// match). At 1,000,000 organizations (3 million tiles, 2 of them repeats) a `[Int: (offset, length)]`
    /// dictionary took about 100 MB; these 34 MB.
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    private var contentCount = 0
    private var addressed: UInt64 = 0
    private var minimumZoom = Int.max
    private var maximumZoom = 0
    private var finished = false

    /// A writer of a PMTiles archive at `path`, published by ``finish(_:)`` through hubgeo's
    /// publisher (``OutputFile``: written beside `path` and renamed over it, or into a device or FIFO
    /// there), with its scratch data beside it (in `$TMPDIR` for a device). Refuses at once what
    /// cannot be written (a directory, the databases `protectedPaths` and the files SQLite keeps
    /// beside them).
    public init(path: String, protecting protectedPaths: [String] = []) throws {
        output = try OutputFile(path: path, protecting: protectedPaths)
        do {
            scratch = try ScratchFile(in: output.workingDirectory)
        } catch {
            output.abandon()
            throw TileArchiveError(error.description)
        }
        buffer.reserveCapacity(1 << 20)
    }

    /// How the tiles handed to ``add(_:stored:)`` are encoded.
    public var tileEncoding: TileEncoding { .gzip }

    /// Adds one tile's MVT.
    public func add(_ tile: TileAddress, _ mvt: [UInt8]) throws {
        try add(tile, stored: try Gzip.compress(mvt))
    }

    /// Adds one tile already encoded as ``tileEncoding`` says.
    public func add(_ tile: TileAddress, stored data: [UInt8]) throws {
        let id = tile.pmtilesID
        minimumZoom = min(minimumZoom, tile.z)
        maximumZoom = max(maximumZoom, tile.z)
        addressed += 1
        let offset = try store(data)
        if var last = lastEntry, last.offset == offset, last.tileID + UInt64(last.runLength) == id {
            last.runLength += 1
            lastEntry = last
        } else {
            precondition(lastEntry.map { $0.tileID < id } ?? true, "tiles must come in tile id order")
            if let last = lastEntry { entries.append(last) }
            lastEntry = PMTilesDirectory.Entry(tileID: id, offset: offset, length: UInt32(data.count), runLength: 1)
        }
    }

    /// The offset of `data` in the tile data: where the same bytes were stored before (found by a hash,
    /// confirmed byte for byte), else where they are appended now.
    private func store(_ data: [UInt8]) throws -> UInt64 {
        // The hash: of the last 8 bytes and the length, which for a gzip member are its CRC-32 and the
        // size of what it holds: no pass over the bytes (the tiles' SipHash cost 0.6 s of 13 s at 200,000).
        var tail: UInt64 = 0
        for byte in data.suffix(8) { tail = tail << 8 | UInt64(byte) }
        let hash = (tail ^ UInt64(data.count) << 40) &* 0x9E37_79B9_7F4A_7C15
        let fingerprint = hash >> 40
        var mask = slots.count - 1
        var slot = Int(fingerprint) & mask
        while slots[slot] != 0 {
            // Bytes at that offset equal to `data` serve this tile, whatever their stored length (which is
            // not kept): and since every tile stored is one gzip member, which no other member begins
            // with, they are a whole earlier tile, as when lengths were compared.
            let known = (slots[slot] >> 24) - 1
            if slots[slot] & 0xFF_FFFF == fingerprint, known + UInt64(data.count) <= written,
               try stored(at: known, equals: data) {
                return known
            }
            slot = (slot + 1) & mask
        }
        let offset = written
        try append(data)
        precondition(offset < 1 << 39, "tile data beyond 512 GB")
        slots[slot] = (offset + 1) << 24 | fingerprint
        contentCount += 1
        if contentCount * 4 > slots.count * 3 {
            // Twice the slots, every content placed again by its 24 bits of hash (which place it well up to
            // 2^24 slots, and correctly beyond).
            let old = slots
            slots = [UInt64](repeating: 0, count: slots.count * 2)
            mask = slots.count - 1
            for value in old where value != 0 {
                var slot = Int(value & 0xFF_FFFF) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = value
            }
        }
        return offset
    }

    /// Writes the header, directories, metadata and tile data to the output and publishes it.
    public func finish(_ metadata: TileSetMetadata) throws {
        try flush()
        if let last = lastEntry {
            entries.append(last)
            lastEntry = nil
        }
        // The hash table is not needed any more.
        slots = []
        let headerSize = 127
        let (root, leaves) = try PMTilesDirectory.build(entries, rootLimit: 16_384 - headerSize)
        let metadataBytes = try Gzip.compress(Array(metadata.json.utf8))
        let rootOffset = UInt64(headerSize)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataBytes.count)
        let dataOffset = leavesOffset + UInt64(leaves.count)
        var header: [UInt8] = Array("PMTiles".utf8) + [3]
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        func i32(_ value: Double) { withUnsafeBytes(of: Int32((value * 10_000_000).rounded()).littleEndian) { header += $0 } }
        u64(rootOffset); u64(UInt64(root.count))
        u64(metadataOffset); u64(UInt64(metadataBytes.count))
        u64(leavesOffset); u64(UInt64(leaves.count))
        u64(dataOffset); u64(written)
        u64(addressed); u64(UInt64(entries.count)); u64(UInt64(contentCount))
        header += [1, 2, 2, 1]  // clustered; internal compression gzip; tile compression gzip; tile type MVT
        // The zooms of the first and last tile, and a centre zoom between them (go-pmtiles `verify`'s rules).
        let lowest = minimumZoom == .max ? 0 : minimumZoom
        header += [UInt8(lowest), UInt8(maximumZoom)]
        let bounds = metadata.bounds
        i32(bounds.west); i32(bounds.south); i32(bounds.east); i32(bounds.north)
        let center = metadata.center
        header.append(UInt8(min(max(center.zoom, lowest), max(lowest, maximumZoom))))
        i32(center.longitude); i32(center.latitude)
        precondition(header.count == headerSize)
        for part in [header, root, metadataBytes, leaves] {
            try part.withUnsafeBytes { try output.write(bytes: $0) }
        }
        // The tile data, copied from the scratch file.
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: UInt64 = 0
        while offset < written {
            let count = try chunk.withUnsafeMutableBytes { memory in
                try read(into: memory, at: offset, count: Int(min(UInt64(memory.count), written - offset)))
            }
            try chunk.withUnsafeBytes { try output.write(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += UInt64(count)
        }
        finished = true
        try output.commit()
    }

    /// Drops the output.
    public func abandon() {
        if !finished { output.abandon() }
        finished = true
    }

    private func append(_ data: [UInt8]) throws {
        buffer += data
        written += UInt64(data.count)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        do {
            _ = try buffer.withUnsafeBytes { try scratch.append($0) }
        } catch {
            throw TileArchiveError("\(error) (for the PMTiles archive)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func read(into memory: UnsafeMutableRawBufferPointer, at offset: UInt64, count: Int) throws -> Int {
        do {
            try scratch.read(into: UnsafeMutableRawBufferPointer(rebasing: memory[0..<count]), at: Int(offset))
        } catch {
            throw TileArchiveError("\(error) (for the PMTiles archive)")
        }
        return count
    }

    private func stored(at offset: UInt64, equals data: [UInt8]) throws -> Bool {
        try flush()
        var stored = [UInt8](repeating: 0, count: data.count)
        _ = try stored.withUnsafeMutableBytes { try read(into: $0, at: offset, count: data.count) }
        return stored == data
    }
}
