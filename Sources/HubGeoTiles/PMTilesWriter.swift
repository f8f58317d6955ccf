#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
/// the 127-byte header, the root directory, the metadata JSON, the leaf directories and the tile
/// data, with MVT tiles and directories gzip-compressed.
///
/// Tiles come in tile id order (each zoom in PMTiles order, zooms ascending), so the data is
/// clustered. Identical tiles are stored once (found by a hash of their bytes, confirmed byte for
/// byte), and a run of consecutive tile ids with the same data is one entry with a run length.
/// The data goes to an unnamed scratch file beside the output while the tiles come, since the
/// directories that precede it are known only at the end; ``finish(_:)`` then writes the whole
/// archive to the output, which publishes it.
public final class PMTilesWriter: TileArchiveWriter {
    private let output: TileOutput
    private let scratch: Int32
    private var buffer: [UInt8] = []
    private var written: UInt64 = 0
    private var entries: [PMTilesDirectory.Entry] = []
    private var contents: [Int: (offset: UInt64, length: UInt32)] = [:]
    private var addressed: UInt64 = 0
    private var minimumZoom = Int.max
    private var maximumZoom = 0
    private var finished = false
    private let onFinish: () throws -> Void
    private let onAbandon: () -> Void

    /// A writer to `output`, keeping its scratch data in `scratchDirectory`; `commit` publishes the
    /// output once it is written, `abandon` drops it.
    public init(output: TileOutput, scratchDirectory: String, commit: @escaping () throws -> Void,
                abandon: @escaping () -> Void) throws {
        self.output = output
        onFinish = commit
        onAbandon = abandon
        var template = Array((scratchDirectory + "/.hubgeo-pmtiles-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw TileArchiveError.system("create a scratch file in", path: scratchDirectory) }
        // Unnamed from the start: nothing is left behind, whatever happens.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        scratch = descriptor
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        close(scratch)
    }

    /// Adds one tile's MVT.
    public func add(_ tile: TileAddress, _ mvt: [UInt8]) throws {
        let data = try Gzip.compress(mvt)
        let id = tile.pmtilesID
        minimumZoom = min(minimumZoom, tile.z)
        maximumZoom = max(maximumZoom, tile.z)
        addressed += 1
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: data, count: data.count))
        let key = hasher.finalize()
        var place: (offset: UInt64, length: UInt32)
        if let known = contents[key], known.length == UInt32(data.count), try stored(at: known.offset, equals: data) {
            place = known
        } else {
            place = (written, UInt32(data.count))
            try append(data)
            if contents[key] == nil { contents[key] = place }
        }
        if var last = entries.last, last.offset == place.offset, last.tileID + UInt64(last.runLength) == id {
            last.runLength += 1
            entries[entries.count - 1] = last
        } else {
            precondition(entries.last.map { $0.tileID < id } ?? true, "tiles must come in tile id order")
            entries.append(PMTilesDirectory.Entry(tileID: id, offset: place.offset, length: place.length, runLength: 1))
        }
    }

    /// Writes the header, directories, metadata and tile data to the output and publishes it.
    public func finish(_ metadata: TileSetMetadata) throws {
        try flush()
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
        u64(addressed); u64(UInt64(entries.count)); u64(UInt64(Set(entries.map(\.offset)).count))
        header += [1, 2, 2, 1]  // clustered; internal compression gzip; tile compression gzip; tile type MVT
        header += [UInt8(minimumZoom == .max ? 0 : minimumZoom), UInt8(maximumZoom)]
        let bounds = metadata.bounds
        i32(bounds.west); i32(bounds.south); i32(bounds.east); i32(bounds.north)
        let center = metadata.center
        header.append(UInt8(center.zoom))
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
        try onFinish()
    }

    /// Drops the output.
    public func abandon() {
        if !finished { onAbandon() }
        finished = true
    }

    private func append(_ data: [UInt8]) throws {
        buffer += data
        written += UInt64(data.count)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        var done = 0
        while done < buffer.count {
            let result = buffer.withUnsafeBytes { Glibc.write(scratch, $0.baseAddress! + done, $0.count - done) }
            if result < 0 {
                if errno == EINTR { continue }
                throw TileArchiveError.system("write the scratch file of", path: "the PMTiles archive")
            }
            done += result
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func read(into memory: UnsafeMutableRawBufferPointer, at offset: UInt64, count: Int) throws -> Int {
        var done = 0
        while done < count {
            let result = pread(scratch, memory.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw TileArchiveError.system("read the scratch file of", path: "the PMTiles archive") }
            done += result
        }
        return done
    }

    private func stored(at offset: UInt64, equals data: [UInt8]) throws -> Bool {
        try flush()
        var stored = [UInt8](repeating: 0, count: data.count)
        _ = try stored.withUnsafeMutableBytes { try read(into: $0, at: offset, count: data.count) }
        return stored == data
    }
}
