import HubGeoModel

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

    /// Entries kept packed while an archive is written, a few bytes each (a tile id delta, the run
    /// length, the length and the offset, or 0 when it follows the previous entry's data, as varints),
    /// and read back in order: 24 bytes an entry as an array of ``Entry``, 7 or so packed (about 3
    /// million entries at 1,000,000 organizations: 72 MB, its array growing by copies, against 20 MB).
    struct EntryList: Sequence {
        private var writer = ProtobufWriter()
        private(set) var count = 0
        private var last = Entry(tileID: 0, offset: 0, length: 0, runLength: 0)

        mutating func append(_ entry: Entry) {
            writer.varint(entry.tileID - last.tileID)
            writer.varint(UInt64(entry.runLength))
            writer.varint(UInt64(entry.length))
            writer.varint(count > 0 && entry.offset == last.offset + UInt64(last.length) ? 0 : entry.offset + 1)
            last = entry
            count += 1
        }

        func makeIterator() -> Iterator { Iterator(bytes: writer.bytes) }

        struct Iterator: IteratorProtocol {
            let bytes: [UInt8]
            var position = 0
            var last = Entry(tileID: 0, offset: 0, length: 0, runLength: 0)

            init(bytes: [UInt8]) { self.bytes = bytes }

            /// The next number; 0 past the end (the directory is hubgeo's own, always whole).
            private mutating func varint() -> UInt64 {
                bytes.withUnsafeBufferPointer { LEB128.read($0, at: &position) } ?? 0
            }

            mutating func next() -> Entry? {
                guard position < bytes.count else { return nil }
                let tileID = last.tileID + varint()
                let runLength = UInt32(varint()), length = UInt32(varint())
                let written = varint()
                let offset = written == 0 ? last.offset + UInt64(last.length) : written - 1
                last = Entry(tileID: tileID, offset: offset, length: length, runLength: runLength)
                return last
            }
        }
    }

    static func serialize(_ entries: ArraySlice<Entry>) throws -> [UInt8] {
        try serialize(entries, count: entries.count)
    }

    /// The directory of `count` entries, read four times (tile ids, run lengths, lengths, offsets).
    static func serialize(_ entries: some Sequence<Entry>, count: Int) throws -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(UInt64(count))
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
    static func build(_ entries: EntryList, rootLimit: Int) throws -> (root: [UInt8], leaves: [UInt8]) {
        let root = try serialize(entries, count: entries.count)
        if root.count <= rootLimit { return (root, []) }
        var leafSize = max(4096, entries.count / 1000)
        var leaf: [Entry] = []
        while true {
            var leaves: [UInt8] = []
            var rootEntries: [Entry] = []
            leaf.removeAll(keepingCapacity: true)
            func addLeaf() throws {
                let bytes = try serialize(leaf[...])
                rootEntries.append(Entry(tileID: leaf[0].tileID, offset: UInt64(leaves.count),
                                         length: UInt32(bytes.count), runLength: 0))
                leaves += bytes
                leaf.removeAll(keepingCapacity: true)
            }
            for entry in entries {
                leaf.append(entry)
                if leaf.count == leafSize { try addLeaf() }
            }
            if !leaf.isEmpty { try addLeaf() }
            let root = try serialize(rootEntries[...])
            if root.count <= rootLimit { return (root, leaves) }
            leafSize += leafSize / 5
        }
    }
}
