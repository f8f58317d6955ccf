/// The serialized form of a cluster index: a header, then the index's arrays one after the other,
/// each starting at a multiple of 8 bytes, all little-endian.
///
/// Header (little-endian): "HGCI", format version (UInt32), radius and extent (Float64),
/// maximum zoom and kd node size (UInt32 each), the counts of organizations, locations and
/// clusters and the separation zoom (UInt64 each), the number of arrays (UInt64), and the element
/// count of each array (UInt64 each). Loading puts the bytes once into aligned memory (a copy,
/// or read there by the caller), checks every count, offset and node number (so that a damaged
/// blob is refused, never read out of bounds) and every coordinate (finite and in range, so that
/// no answer carries a damaged number), and points the arrays into that memory.
extension ClusterIndex {
    static let magic: [UInt8] = Array("HGCI".utf8)
    package static let formatVersion: UInt32 = 1
    /// The element size of each array, in the order of ``ClusterStorage/Arrays``.
    static let elementSizes = [8, 8, 8, 4, 1, 4, 8, 4, 4, 4, 1, 4, 4, 8, 1]
    private static var headerSize: Int { 72 + 8 * elementSizes.count }

    /// The index as bytes for ``init(serialized:)``: the same arrays it answers from, so a loaded
    /// index answers exactly as this one.
    package func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(serializedByteCount)
        serialize { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The number of bytes ``serialize(_:)`` writes.
    package var serializedByteCount: Int {
        var size = Self.headerSize
        for section in sections { size = Self.aligned(size) + section.count }
        return size
    }

    /// Hands the serialized bytes to `write` piece by piece, in order (the header, then each
    /// array and its padding), without making a copy of the index: for writing to a file or an
    /// SQLite blob handle. Errors of `write` are passed on.
    package func serialize(_ write: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let storage = self.storage
        let sections = self.sections
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        header.withUnsafeMutableBytes { output in
            var header = HeaderWriter(output)
            header.bytes(Self.magic)
            header.integer(Self.formatVersion)
            header.integer(storage.options.radius.bitPattern)
            header.integer(storage.options.extent.bitPattern)
            header.integer(UInt32(storage.options.maximumZoom))
            header.integer(UInt32(storage.options.nodeSize))
            header.integer(UInt64(storage.organizationCount))
            header.integer(UInt64(storage.groupCount))
            header.integer(UInt64(storage.clusterCount))
            header.integer(UInt64(storage.separationZoom))
            header.integer(UInt64(sections.count))
            for (section, size) in zip(sections, Self.elementSizes) { header.integer(UInt64(section.count / size)) }
        }
        try header.withUnsafeBytes { try write($0) }
        let padding = [UInt8](repeating: 0, count: 8)
        var offset = Self.headerSize
        for (index, section) in sections.enumerated() {
            if Self.aligned(offset) > offset {
                try padding.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<(Self.aligned(offset) - offset)])) }
                offset = Self.aligned(offset)
            }
            #if _endian(little)
            try write(section)
            #else
            let swapped = UnsafeMutableRawBufferPointer.allocate(byteCount: section.count, alignment: 8)
            defer { swapped.deallocate() }
            swapped.copyMemory(from: section)
            Self.reverseElements(swapped, elementSize: Self.elementSizes[index])
            try write(UnsafeRawBufferPointer(swapped))
            #endif
            offset += section.count
        }
    }

    /// The arrays in their serialized order.
    private var sections: [UnsafeRawBufferPointer] {
        let storage = self.storage
        return [
            UnsafeRawBufferPointer(storage.organizationIDs), UnsafeRawBufferPointer(storage.organizationLatitudes),
            UnsafeRawBufferPointer(storage.organizationLongitudes), UnsafeRawBufferPointer(storage.groupStarts),
            UnsafeRawBufferPointer(storage.nodeZooms), UnsafeRawBufferPointer(storage.clusterCounts),
            UnsafeRawBufferPointer(storage.clusterPositions), UnsafeRawBufferPointer(storage.clusterBounds),
            UnsafeRawBufferPointer(storage.childStarts), UnsafeRawBufferPointer(storage.children),
            UnsafeRawBufferPointer(storage.bandZooms), UnsafeRawBufferPointer(storage.bandStarts),
            UnsafeRawBufferPointer(storage.bandIDs), UnsafeRawBufferPointer(storage.bandCoordinates),
            UnsafeRawBufferPointer(storage.bandEntryZooms),
        ]
    }

    /// Loads an index from ``serialized()`` bytes, without building anything.
    package init(serialized bytes: [UInt8]) throws(ClusterIndexError) {
        let loaded = bytes.withUnsafeBytes { buffer in Result { () throws(ClusterIndexError) in try Self.load(buffer) } }
        self.init(storage: try loaded.get())
    }

    /// Loads an index from ``serialized()`` bytes held elsewhere (a database blob, say); the
    /// bytes are copied, so they need not outlive the call.
    package init(serialized bytes: UnsafeRawBufferPointer) throws(ClusterIndexError) {
        self.init(storage: try Self.load(bytes))
    }

    /// Loads an index of `byteCount` serialized bytes that `read` writes into the index's own
    /// memory (from a file, or an SQLite blob handle), so that they are held only once. Errors
    /// of `read` are passed on.
    package init(serializedByteCount byteCount: Int, reading read: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        guard byteCount >= 0 else { throw ClusterIndexError.invalidSerialization("a negative size") }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, byteCount), alignment: 16)
        let bytes = UnsafeMutableRawBufferPointer(rebasing: memory[0..<byteCount])
        do {
            try read(bytes)
        } catch {
            memory.deallocate()
            throw error
        }
        self.init(storage: try Self.load(owning: memory, byteCount: byteCount))
    }

    private static func aligned(_ offset: Int) -> Int { (offset + 7) & ~7 }

    private static func load(_ bytes: UnsafeRawBufferPointer) throws(ClusterIndexError) -> ClusterStorage {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        memory.copyMemory(from: bytes)
        return try load(owning: memory, byteCount: bytes.count)
    }

    /// Checks the serialized index in `memory` (16-byte aligned; freed if it is refused) and
    /// points the arrays into it.
    private static func load(owning memory: UnsafeMutableRawBufferPointer, byteCount: Int) throws(ClusterIndexError) -> ClusterStorage {
        do {
            return try load(memory, byteCount: byteCount)
        } catch {
            memory.deallocate()
            throw error
        }
    }

    private static func load(_ memory: UnsafeMutableRawBufferPointer, byteCount: Int) throws(ClusterIndexError) -> ClusterStorage {
        let bytes = UnsafeRawBufferPointer(rebasing: memory[0..<byteCount])
        guard bytes.count >= headerSize, Array(bytes.prefix(4)) == magic else {
            throw .invalidSerialization("it does not start with a cluster index header")
        }
        var header = HeaderReader(bytes, offset: 4)
        let version: UInt32 = header.integer()
        guard version == formatVersion else {
            throw .invalidSerialization("format version \(version), this program reads version \(formatVersion)")
        }
        let options = ClusterOptions(
            radius: Double(bitPattern: header.integer()), extent: Double(bitPattern: header.integer()),
            maximumZoom: Int(header.integer() as UInt32), nodeSize: Int(header.integer() as UInt32))
        do { try options.validate() } catch { throw .invalidSerialization("\(error)") }
        let organizationCount = Int(clamping: header.integer() as UInt64)
        let groupCount = Int(clamping: header.integer() as UInt64)
        let clusterCount = Int(clamping: header.integer() as UInt64)
        let separationZoom = Int(clamping: header.integer() as UInt64)
        let sectionCount = Int(clamping: header.integer() as UInt64)
        guard sectionCount == elementSizes.count else {
            throw .invalidSerialization("\(sectionCount) arrays, expected \(elementSizes.count)")
        }
        guard organizationCount <= maximumOrganizationCount, groupCount <= organizationCount,
              (groupCount == 0) == (organizationCount == 0), clusterCount < max(1, groupCount),
              separationZoom <= options.maximumZoom else {
            throw .invalidSerialization("inconsistent counts")
        }
        let counts = (0..<sectionCount).map { _ in Int(clamping: header.integer() as UInt64) }
        guard counts.allSatisfy({ $0 <= bytes.count }) else {  // so that no size below overflows
            throw .invalidSerialization("an array longer than the bytes")
        }
        let nodeCount = groupCount + clusterCount
        let bandCount = counts[11] - 1
        let entryCount = counts[12]
        let expected = [
            organizationCount, organizationCount, organizationCount, groupCount + 1, 2 * nodeCount,
            clusterCount, 2 * clusterCount, 4 * clusterCount, clusterCount + 1, counts[9],
            2 * bandCount, bandCount + 1, entryCount, 2 * entryCount, 2 * entryCount,
        ]
        guard bandCount >= 1, counts == expected, counts[9] <= nodeCount else {
            throw .invalidSerialization("array sizes do not match the counts")
        }
        var size = headerSize
        var offsets: [Int] = []
        for (count, elementSize) in zip(counts, elementSizes) {
            size = aligned(size)
            offsets.append(size)
            size += count * elementSize
        }
        guard size == bytes.count else {
            throw .invalidSerialization("\(bytes.count) bytes, expected \(size)")
        }

        for (offset, (count, elementSize)) in zip(offsets, zip(counts, elementSizes)) {
            fromLittleEndian(UnsafeMutableRawBufferPointer(rebasing: memory[offset..<(offset + count * elementSize)]),
                             elementSize: elementSize)
        }
        func array<T>(_ section: Int, _ type: T.Type) -> UnsafeBufferPointer<T> {
            let start = memory.baseAddress! + offsets[section]
            return UnsafeBufferPointer(start: start.bindMemory(to: T.self, capacity: counts[section]), count: counts[section])
        }
        let arrays = ClusterStorage.Arrays(
            organizationIDs: array(0, Int64.self), organizationLatitudes: array(1, Double.self),
            organizationLongitudes: array(2, Double.self), groupStarts: array(3, Int32.self),
            nodeZooms: array(4, UInt8.self), clusterCounts: array(5, Int32.self),
            clusterPositions: array(6, Double.self), clusterBounds: array(7, Float.self),
            childStarts: array(8, Int32.self), children: array(9, Int32.self),
            bandZooms: array(10, UInt8.self), bandStarts: array(11, Int32.self), bandIDs: array(12, Int32.self),
            bandCoordinates: array(13, Double.self), bandEntryZooms: array(14, UInt8.self))
        try validate(arrays, groupCount: groupCount, clusterCount: clusterCount, separationZoom: separationZoom)
        return ClusterStorage(
            options: options, organizationCount: organizationCount, groupCount: groupCount,
            clusterCount: clusterCount, separationZoom: separationZoom, arrays: arrays,
            allocations: [memory.baseAddress!])
    }

    /// Checks everything the queries rely on: every number used to reach into an array is in
    /// range, children come before their parents (so walks end), counts add up, and the bands
    /// cover the zooms.
    private static func validate(
        _ arrays: ClusterStorage.Arrays, groupCount: Int, clusterCount: Int, separationZoom: Int
    ) throws(ClusterIndexError) {
        let nodeCount = groupCount + clusterCount
        let organizationCount = arrays.organizationIDs.count
        func fail(_ reason: String) -> ClusterIndexError { .invalidSerialization(reason) }

        guard arrays.groupStarts[0] == 0, arrays.groupStarts[groupCount] == Int32(organizationCount) else {
            throw fail("location starts do not span the organizations")
        }
        for group in 0..<groupCount where arrays.groupStarts[group + 1] <= arrays.groupStarts[group] {
            throw fail("location \(group) is empty")
        }
        for node in 0..<nodeCount {
            let low = arrays.nodeZooms[2 * node], high = arrays.nodeZooms[2 * node + 1]
            guard low <= high, Int(high) <= separationZoom, node >= groupCount || Int(high) == separationZoom else {
                throw fail("node \(node) has zooms \(low)...\(high)")
            }
        }
        guard arrays.childStarts[0] == 0, Int(arrays.childStarts[clusterCount]) == arrays.children.count else {
            throw fail("child starts do not span the children")
        }
        var hasParent = [Bool](repeating: false, count: nodeCount)
        for cluster in 0..<clusterCount {
            let node = groupCount + cluster
            let start = Int(arrays.childStarts[cluster]), end = Int(arrays.childStarts[cluster + 1])
            guard start >= 0, end - start >= 2, end <= arrays.children.count else {
                throw fail("cluster \(node) has \(end - start) children")
            }
            var total = 0
            for slot in start..<end {
                let child = Int(arrays.children[slot])
                guard child >= 0, child < node, !hasParent[child],
                      arrays.nodeZooms[2 * child] == arrays.nodeZooms[2 * node + 1] &+ 1 else {
                    throw fail("cluster \(node) has a wrong child \(child)")
                }
                hasParent[child] = true
                total += child < groupCount
                    ? Int(arrays.groupStarts[child + 1] - arrays.groupStarts[child])
                    : Int(arrays.clusterCounts[child - groupCount])
            }
            guard total == Int(arrays.clusterCounts[cluster]) else {
                throw fail("cluster \(node) counts \(arrays.clusterCounts[cluster]), its children \(total)")
            }
        }
        let bandCount = arrays.bandStarts.count - 1
        var expectedHigh = separationZoom
        guard arrays.bandStarts[0] == 0, Int(arrays.bandStarts[bandCount]) == arrays.bandIDs.count else {
            throw fail("band starts do not span the entries")
        }
        for band in 0..<bandCount {
            let low = Int(arrays.bandZooms[2 * band]), high = Int(arrays.bandZooms[2 * band + 1])
            guard high == expectedHigh, low <= high, arrays.bandStarts[band] <= arrays.bandStarts[band + 1] else {
                throw fail("band \(band) covers zooms \(low)...\(high)")
            }
            expectedHigh = low - 1
        }
        guard expectedHigh == -1 else { throw fail("the bands do not reach zoom 0") }
        for entry in 0..<arrays.bandIDs.count {
            let node = Int(arrays.bandIDs[entry])
            guard node >= 0, node < nodeCount, arrays.bandEntryZooms[2 * entry] == arrays.nodeZooms[2 * node],
                  arrays.bandEntryZooms[2 * entry + 1] == arrays.nodeZooms[2 * node + 1] else {
                throw fail("band entry \(entry) is wrong")
            }
            guard unit.contains(arrays.bandCoordinates[2 * entry]), unit.contains(arrays.bandCoordinates[2 * entry + 1]) else {
                throw fail("band entry \(entry) lies at (\(arrays.bandCoordinates[2 * entry]), \(arrays.bandCoordinates[2 * entry + 1]))")
            }
        }
        try validateNumbers(arrays, clusterCount: clusterCount)
    }

    /// Web Mercator positions lie in the unit square (``WebMercator``).
    private static let unit = 0.0...1.0

    /// Checks that every number an answer carries is finite and in range (a NaN or a latitude of
    /// 1e300 in the blob stopped `hubgeo serve` on ExportText's precondition at the first view,
    /// and a NaN in a band's kd-tree hid every item of the view): organizations' coordinates in
    /// degrees, clusters' centres in the unit square, their boxes in degrees with south <= north
    /// and west <= east. One pass over each array.
    private static func validateNumbers(_ arrays: ClusterStorage.Arrays, clusterCount: Int) throws(ClusterIndexError) {
        func fail(_ reason: String) -> ClusterIndexError { .invalidSerialization(reason) }
        let latitudes = arrays.organizationLatitudes, longitudes = arrays.organizationLongitudes
        for slot in 0..<latitudes.count {
            guard (-90...90).contains(latitudes[slot]), (-180...180).contains(longitudes[slot]) else {
                throw fail("organization \(slot) has coordinates (\(latitudes[slot]), \(longitudes[slot]))")
            }
        }
        let positions = arrays.clusterPositions, bounds = arrays.clusterBounds
        for cluster in 0..<clusterCount {
            guard unit.contains(positions[2 * cluster]), unit.contains(positions[2 * cluster + 1]) else {
                throw fail("cluster \(cluster) has its centre at (\(positions[2 * cluster]), \(positions[2 * cluster + 1]))")
            }
            let south = bounds[4 * cluster], west = bounds[4 * cluster + 1]
            let north = bounds[4 * cluster + 2], east = bounds[4 * cluster + 3]
            guard (-90...90).contains(south), (-90...90).contains(north), (-180...180).contains(west),
                  (-180...180).contains(east), south <= north, west <= east else {
                throw fail("cluster \(cluster) has the box \(south), \(west), \(north), \(east)")
            }
        }
    }

    // MARK: Byte order

    private static func fromLittleEndian(_ buffer: UnsafeMutableRawBufferPointer, elementSize: Int) {
        #if _endian(big)
        reverseElements(buffer, elementSize: elementSize)
        #endif
    }

    private static func reverseElements(_ buffer: UnsafeMutableRawBufferPointer, elementSize: Int) {
        guard elementSize > 1 else { return }
        var start = 0
        while start + elementSize <= buffer.count {
            var low = start, high = start + elementSize - 1
            while low < high {
                buffer.swapAt(low, high)
                low += 1
                high -= 1
            }
            start += elementSize
        }
    }
}

/// Writes the header's fields one after the other, little-endian.
private struct HeaderWriter {
    let output: UnsafeMutableRawBufferPointer
    var offset = 0

    init(_ output: UnsafeMutableRawBufferPointer) { self.output = output }

    mutating func bytes(_ bytes: [UInt8]) {
        for byte in bytes {
            output[offset] = byte
            offset += 1
        }
    }

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        output.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }
}

/// Reads the header's fields one after the other, little-endian.
private struct HeaderReader {
    let input: UnsafeRawBufferPointer
    var offset: Int

    init(_ input: UnsafeRawBufferPointer, offset: Int) {
        self.input = input
        self.offset = offset
    }

    mutating func integer<T: FixedWidthInteger>() -> T {
        let value = input.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return T(littleEndian: value)
    }
}
