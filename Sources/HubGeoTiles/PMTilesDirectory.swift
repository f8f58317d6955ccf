/// The directories of a PMTiles v3 archive: entries (tile id, offset, length, run length) sorted
/// by tile id, serialized as the spec says (count, then the tile id deltas, run lengths, lengths
/// and offsets as varints, an offset written 0 when it follows the previous entry's data) and
/// gzip-compressed; a root directory of at most 16,384 bytes less the header, and when the
/// entries do not fit in it, leaf directories that the root points to (run length 0).
struct PMTilesDirectory {
    struct Entry {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    static func serialize(_ entries: ArraySlice<Entry>) throws -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            writer.varint(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { writer.varint(UInt64(entry.runLength)) }
        for entry in entries { writer.varint(UInt64(entry.length)) }
        var previous: Entry?
        for entry in entries {
            if let previous, entry.offset == previous.offset + UInt64(previous.length) {
                writer.varint(0)
            } else {
                writer.varint(entry.offset + 1)
            }
            previous = entry
        }
        return try Gzip.compress(writer.bytes)
    }

    /// The root directory and the leaf directories (one after the other) for `entries`: all in
    /// the root when it fits in `rootLimit` bytes, else leaves of 4,096 entries or more, as
    /// many as keep the root within the limit (go-pmtiles' layout).
    static func build(_ entries: [Entry], rootLimit: Int) throws -> (root: [UInt8], leaves: [UInt8]) {
        let root = try serialize(entries[...])
        if root.count <= rootLimit { return (root, []) }
        var leafSize = max(4096, entries.count / 1000)
        while true {
            var leaves: [UInt8] = []
            var rootEntries: [Entry] = []
            var start = 0
            while start < entries.count {
                let end = min(entries.count, start + leafSize)
                let leaf = try serialize(entries[start..<end])
                rootEntries.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count),
                                         length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start = end
            }
            let root = try serialize(rootEntries[...])
            if root.count <= rootLimit { return (root, leaves) }
            leafSize += leafSize / 5
        }
    }
}
