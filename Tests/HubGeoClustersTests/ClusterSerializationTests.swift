import Testing
@testable import HubGeoClusters

/// An index written to bytes and read back answers exactly as the one that was built; damaged
/// bytes are refused or, where only numbers that point nowhere are changed, still answered
/// without reading out of bounds.
@Suite("Cluster index serialization")
struct ClusterSerializationTests {
    static func sameAnswers(_ built: ClusterIndex, _ loaded: ClusterIndex) throws {
        #expect(loaded.organizationCount == built.organizationCount)
        #expect(loaded.locationCount == built.locationCount)
        #expect(loaded.clusterCount == built.clusterCount)
        #expect(loaded.separationZoom == built.separationZoom)
        #expect(loaded.options == built.options)
        for zoom in 0...(built.separationZoom + 1) {
            let world = (west: -180.0, south: -90.0, east: 180.0, north: 90.0)
            #expect(loaded.clusters(west: world.west, south: world.south, east: world.east, north: world.north, zoom: zoom)
                == built.clusters(west: world.west, south: world.south, east: world.east, north: world.north, zoom: zoom))
        }
        var random = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let view = TestData.view(&random, maxZoom: built.separationZoom, around: [])
            #expect(loaded.clusters(west: view.west, south: view.south, east: view.east, north: view.north, zoom: view.zoom)
                == built.clusters(west: view.west, south: view.south, east: view.east, north: view.north, zoom: view.zoom))
        }
        for id in 0..<(built.locationCount + built.clusterCount) {
            #expect(try loaded.item(id: id) == built.item(id: id))
            #expect(try loaded.children(of: id) == built.children(of: id))
            #expect(try loaded.leaves(of: id, limit: 1000) == built.leaves(of: id, limit: 1000))
            #expect(try loaded.expansionZoom(of: id) == built.expansionZoom(of: id))
        }
    }

    @Test func aRoundTripAnswersAsTheBuiltIndex() throws {
        let built = try ClusterIndex(TestData.clubs(count: 4000, seed: 61))
        let bytes = built.serialized()
        let loaded = try ClusterIndex(serialized: bytes)
        try Self.sameAnswers(built, loaded)
        #expect(loaded.serialized() == bytes)
        let fromPointer = try bytes.withUnsafeBytes { try ClusterIndex(serialized: $0) }
        try Self.sameAnswers(built, fromPointer)
        let read = try ClusterIndex(serializedByteCount: bytes.count) { memory in
            bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        }
        try Self.sameAnswers(built, read)
        #expect(Array(bytes.prefix(4)) == Array("HGCI".utf8))
        #expect(built.serializedByteCount == bytes.count)
        var pieces: [[UInt8]] = []
        built.serialize { pieces.append(Array($0)) }
        #expect(pieces.count > 15 && Array(pieces.joined()) == bytes)
    }

    /// The build spreads its searches, sorts and bands over threads; the bytes are the same for
    /// any number of them.
    @Test func anyNumberOfThreadsBuildsTheSameBytes() throws {
        let organizations = TestData.clubs(count: 30_000, seed: 63)
        let one = try ClusterIndex(organizations, threads: 1).serialized()
        for threads in [2, 3] {
            #expect(try ClusterIndex(organizations, threads: threads).serialized() == one, "\(threads) threads")
        }
    }

    @Test func aLazyCollectionBuildsWhatAnArrayBuilds() throws {
        let organizations = TestData.clubs(count: 500, seed: 65)
        let lazy = organizations.indices.lazy.map { organizations[$0] }
        #expect(try ClusterIndex(lazy).serialized() == ClusterIndex(organizations).serialized())
        #expect(try ClusterIndex(organizations[100..<300]).organizationCount == 200)
    }

    @Test func smallIndexesRoundTrip() throws {
        let cases: [[ClusterIndex.Organization]] = [
            [],
            [.init(id: 7, latitude: -33.9, longitude: 18.4)],
            (0..<20).map { .init(id: Int64($0), latitude: 1, longitude: 2) },
            [.init(id: 1, latitude: 90, longitude: 180), .init(id: 2, latitude: -90, longitude: -180)],
        ]
        for organizations in cases {
            let built = try ClusterIndex(organizations, options: ClusterOptions(radius: 50, extent: 512, maximumZoom: 20, nodeSize: 8))
            let loaded = try ClusterIndex(serialized: built.serialized())
            try Self.sameAnswers(built, loaded)
        }
    }

    struct ReadFailure: Error, Equatable {}

    @Test func readingPassesOnItsErrorsAndRefusesShortReads() throws {
        let bytes = try ClusterIndex(TestData.clubs(count: 30, seed: 64)).serialized()
        #expect(throws: ReadFailure()) {
            try ClusterIndex(serializedByteCount: bytes.count) { _ in throw ReadFailure() }
        }
        #expect(throws: ClusterIndexError.self) {
            try ClusterIndex(serializedByteCount: bytes.count + 8) { memory in
                bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: memory[0..<bytes.count]).copyMemory(from: $0) }
            }
        }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex(serializedByteCount: -1) { _ in } }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex(serializedByteCount: 0) { _ in } }
    }

    @Test func damagedBytesAreRefusedOrHarmless() throws {
        let built = try ClusterIndex(TestData.clubs(count: 40, seed: 62))
        let bytes = built.serialized()
        #expect(throws: ClusterIndexError.self) { try ClusterIndex(serialized: []) }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex(serialized: Array(bytes.dropLast())) }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex(serialized: bytes + [0]) }
        var wrongVersion = bytes
        wrongVersion[4] = 2
        #expect {
            try ClusterIndex(serialized: wrongVersion)
        } throws: { error in
            "\(error)".contains("format version 2")
        }
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: ClusterIndexError.self) { try ClusterIndex(serialized: Array(bytes.prefix(length))) }
        }
        // Every byte changed in turn: either refused, or an index whose every answer can be given.
        var refused = 0
        for position in bytes.indices {
            var damaged = bytes
            damaged[position] ^= 0xA5
            guard let index = try? ClusterIndex(serialized: damaged) else {
                refused += 1
                continue
            }
            for zoom in 0...(index.separationZoom + 1) {
                for item in index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom) {
                    #expect(Self.inRange(item), "byte \(position): \(item)")
                }
            }
            for id in 0..<(index.locationCount + index.clusterCount) {
                #expect(Self.inRange(try index.item(id: id)), "byte \(position), item \(id)")
                _ = try index.children(of: id)
                _ = try index.leaves(of: id, limit: .max)
                _ = try index.expansionZoom(of: id)
            }
        }
        #expect(refused > bytes.count / 4)
    }

    /// True when every number of `item` is finite and in its range (what ExportText writes).
    static func inRange(_ item: ClusterIndex.Item) -> Bool {
        (-90...90).contains(item.latitude) && (-180...180).contains(item.longitude)
            && (-90...90).contains(item.bounds.south) && (-90...90).contains(item.bounds.north)
            && (-180...180).contains(item.bounds.west) && (-180...180).contains(item.bounds.east)
            && item.bounds.south <= item.bounds.north && item.bounds.west <= item.bounds.east
    }

    /// The byte range of each array of a serialized index (the layout ``ClusterIndex/serialized()`` writes).
    static func sections(of bytes: [UInt8]) -> [Range<Int>] {
        let sizes = ClusterIndex.elementSizes
        var offset = 72 + 8 * sizes.count
        return sizes.indices.map { section in
            let count = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 72 + 8 * section, as: UInt64.self).littleEndian) }
            offset = (offset + 7) & ~7
            defer { offset += count * sizes[section] }
            return offset..<(offset + count * sizes[section])
        }
    }

    /// A NaN, an infinity or a number out of range anywhere in the coordinates, the centres, the
    /// boxes or the bands' positions is refused at load (they stopped `serve` at its first view,
    /// or emptied the world view); so are a box turned inside out and a band entry whose zooms
    /// are not its node's.
    @Test func damagedNumbersAreRefused() throws {
        let built = try ClusterIndex(TestData.clubs(count: 400, seed: 66))
        #expect(built.clusterCount > 10)
        let bytes = built.serialized()
        let sections = Self.sections(of: bytes)
        #expect(sections.last?.upperBound == bytes.count)
        func damaged(_ section: Int, element: Int, _ change: (UnsafeMutableRawBufferPointer, Int) -> Void) -> [UInt8] {
            var copy = bytes
            copy.withUnsafeMutableBytes { change($0, sections[section].lowerBound + element * ClusterIndex.elementSizes[section]) }
            return copy
        }
        func expectRefused(_ bytes: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: ClusterIndexError.self, "\(what)", sourceLocation: sourceLocation) { try ClusterIndex(serialized: bytes) }
        }
        // organizationLatitudes, organizationLongitudes, clusterPositions, bandCoordinates (Float64)
        for section in [1, 2, 6, 13] {
            let count = sections[section].count / 8
            for element in Set([0, count / 2, count - 1]) {
                for value in [Double.nan, .infinity, -.infinity, 1e9, -1e300, 1.5, -0.25] {
                    // 1.5 and -0.25 are in degrees' range but not in the unit square.
                    if (section == 1 || section == 2) && (value == 1.5 || value == -0.25) { continue }
                    expectRefused(damaged(section, element: element) { $0.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: $1, as: UInt64.self) },
                                  "array \(section)[\(element)] = \(value)")
                }
            }
        }
        // clusterBounds (Float32): each edge of the first and last boxes.
        let boxes = sections[7].count / 16
        for element in [0, 1, 2, 3, 4 * boxes - 4, 4 * boxes - 1] {
            for value in [Float.nan, .infinity, -.infinity, 1e9, -500] {
                expectRefused(damaged(7, element: element) { $0.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: $1, as: UInt32.self) },
                              "box edge \(element) = \(value)")
            }
        }
        // A box whose south edge is north of its north edge.
        expectRefused(damaged(7, element: 0) { buffer, offset in
            let north = Float(bitPattern: UInt32(littleEndian: buffer.load(fromByteOffset: offset + 8, as: UInt32.self)))
            buffer.storeBytes(of: north.nextUp.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
        }, "south above north")
        // A band entry shown at zooms its node is not.
        expectRefused(damaged(14, element: 1) { buffer, offset in buffer[offset] = buffer[offset] == 0 ? 1 : buffer[offset] - 1 },
                      "band entry zooms")
        // The same bytes undamaged still load.
        _ = try ClusterIndex(serialized: bytes)
    }
}
