/// The flat arrays of a cluster index, immutable once made. Built indexes own one allocation per
/// array; loaded ones a single aligned copy of the serialized bytes that every array points into.
///
/// Nodes are numbered groups first (the locations: organizations sharing exact coordinates,
/// `0..<groupCount`, in kd-tree order), then clusters in the order they were made
/// (`groupCount..<nodeCount`); a cluster's children always have smaller numbers.
final class ClusterStorage: @unchecked Sendable {
    let options: ClusterOptions
    let organizationCount: Int
    let groupCount: Int
    let clusterCount: Int
    /// The lowest zoom at which every item is a location (supercluster's maxZoom + 1).
    let separationZoom: Int

    /// The organizations, ordered by group (each group's in input order).
    let organizationIDs: UnsafeBufferPointer<Int64>
    let organizationLatitudes: UnsafeBufferPointer<Double>
    let organizationLongitudes: UnsafeBufferPointer<Double>
    /// Group g holds organizations groupStarts[g]..<groupStarts[g + 1] (groupCount + 1 entries).
    let groupStarts: UnsafeBufferPointer<Int32>
    /// Node n is shown at zooms nodeZooms[2n]...nodeZooms[2n + 1].
    let nodeZooms: UnsafeBufferPointer<UInt8>
    /// Per cluster (node - groupCount): its organization count, its weighted centre in Web
    /// Mercator units, and its box (south, west, north, east), outward-rounded floats.
    let clusterCounts: UnsafeBufferPointer<Int32>
    let clusterPositions: UnsafeBufferPointer<Double>
    let clusterBounds: UnsafeBufferPointer<Float>
    /// Cluster c's children are children[childStarts[c]..<childStarts[c + 1]] (clusterCount + 1 entries).
    let childStarts: UnsafeBufferPointer<Int32>
    let children: UnsafeBufferPointer<Int32>
    /// The zoom bands: band b serves zooms bandZooms[2b]...bandZooms[2b + 1] with the kd-tree of
    /// entries bandStarts[b]..<bandStarts[b + 1] (bandCount + 1 entries), which holds every node
    /// shown at some zoom of the band; a query keeps the entries whose zooms hold its own.
    let bandZooms: UnsafeBufferPointer<UInt8>
    let bandStarts: UnsafeBufferPointer<Int32>
    let bandIDs: UnsafeBufferPointer<Int32>
    let bandCoordinates: UnsafeBufferPointer<Double>
    let bandEntryZooms: UnsafeBufferPointer<UInt8>

    /// The band of each zoom 0...separationZoom.
    let bandOfZoom: [Int]
    private let allocations: [UnsafeMutableRawPointer]

    var nodeCount: Int { groupCount + clusterCount }
    var bandCount: Int { bandStarts.count - 1 }

    struct Arrays {
        var organizationIDs: UnsafeBufferPointer<Int64>
        var organizationLatitudes: UnsafeBufferPointer<Double>
        var organizationLongitudes: UnsafeBufferPointer<Double>
        var groupStarts: UnsafeBufferPointer<Int32>
        var nodeZooms: UnsafeBufferPointer<UInt8>
        var clusterCounts: UnsafeBufferPointer<Int32>
        var clusterPositions: UnsafeBufferPointer<Double>
        var clusterBounds: UnsafeBufferPointer<Float>
        var childStarts: UnsafeBufferPointer<Int32>
        var children: UnsafeBufferPointer<Int32>
        var bandZooms: UnsafeBufferPointer<UInt8>
        var bandStarts: UnsafeBufferPointer<Int32>
        var bandIDs: UnsafeBufferPointer<Int32>
        var bandCoordinates: UnsafeBufferPointer<Double>
        var bandEntryZooms: UnsafeBufferPointer<UInt8>
    }

    /// Takes ownership of `allocations`, which hold the arrays. The arrays must be consistent
    /// (the builder makes them so; the loader checks them first).
    init(
        options: ClusterOptions, organizationCount: Int, groupCount: Int, clusterCount: Int,
        separationZoom: Int, arrays: Arrays, allocations: [UnsafeMutableRawPointer]
    ) {
        self.options = options
        self.organizationCount = organizationCount
        self.groupCount = groupCount
        self.clusterCount = clusterCount
        self.separationZoom = separationZoom
        organizationIDs = arrays.organizationIDs
        organizationLatitudes = arrays.organizationLatitudes
        organizationLongitudes = arrays.organizationLongitudes
        groupStarts = arrays.groupStarts
        nodeZooms = arrays.nodeZooms
        clusterCounts = arrays.clusterCounts
        clusterPositions = arrays.clusterPositions
        clusterBounds = arrays.clusterBounds
        childStarts = arrays.childStarts
        children = arrays.children
        bandZooms = arrays.bandZooms
        bandStarts = arrays.bandStarts
        bandIDs = arrays.bandIDs
        bandCoordinates = arrays.bandCoordinates
        bandEntryZooms = arrays.bandEntryZooms
        self.allocations = allocations
        var bandOfZoom = [Int](repeating: 0, count: separationZoom + 1)
        for band in 0..<(arrays.bandStarts.count - 1) {
            for zoom in Int(arrays.bandZooms[2 * band])...Int(arrays.bandZooms[2 * band + 1]) {
                bandOfZoom[zoom] = band
            }
        }
        self.bandOfZoom = bandOfZoom
    }

    deinit {
        for allocation in allocations { allocation.deallocate() }
    }

    /// The kd-tree of band `band`.
    func tree(ofBand band: Int) -> KDTree {
        let start = Int(bandStarts[band]), end = Int(bandStarts[band + 1])
        return KDTree(
            ids: bandIDs.baseAddress! + start, coordinates: bandCoordinates.baseAddress! + 2 * start,
            count: end - start, nodeSize: options.nodeSize)
    }
}

/// A buffer of `count` elements set to `value` (at least one element is allocated, so that the
/// base address is never nil); its memory is the caller's to hand over or free.
func allocateBuffer<T>(_ count: Int, repeating value: T) -> UnsafeMutableBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, count))
    buffer.initialize(repeating: value)
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
}
