/// Builds the arrays of a ``ClusterIndex``: supercluster's hierarchical greedy clustering, level by
/// level from the separation zoom down to 0, but touching at each level only the items that can
/// take part in a cluster there.
///
/// **Levels.** Level `separationZoom` holds the locations (groups of organizations with the same
/// projected coordinates). Level z is made from level z + 1 as supercluster makes it: in level
/// order, every item not yet taken at this level takes all untaken items within the clustering
/// distance d(z) = radius / (extent · 2^z); if it found any, they become one new cluster at their
/// count-weighted centre, which takes the seed's place in the level order; otherwise it stays as
/// it is. Items carried over keep their node (and id), so a cluster has at least two children and
/// splits exactly one zoom above the level that made it.
///
/// **Candidates.** An item can only take part at level z if another item lies within d(z) of it.
/// Every item carries an *event level*: an upper bound of the highest level at which it can
/// meet an item present when the bound was set. A location's comes from its nearest location; a
/// new cluster is simply due at the level below the one that made it (most meet something
/// there); an item that is due at a level and survives it gets a new one from its nearest item.
/// Of any two items within d(z) of each other at level z, the one whose bound was set last was
/// set with the other present, so it is due at z exactly (had it been due earlier it would
/// have been set again). Level z therefore only looks at the items due there and at their
/// neighbours within d(z); no other item can meet anything at that level. Visited in level order
/// these give exactly supercluster's result, while the many high levels at which only a few
/// close pairs merge cost little.
///
/// **Neighbour searches.** Items never move, so every search runs over two kd-trees of current
/// positions: a *base* tree over the items present when it was last built and an *overlay* tree
/// over the clusters made since, each entry with a flag set when its item is taken into a
/// cluster. The overlay is rebuilt after every level that made clusters; the base (taking the
/// overlay in) when a third of its entries are gone or the overlay has grown to a quarter of
/// it, so the trees shrink with the levels and stay within a few times the items present.
///
/// **Threads.** The neighbour and nearest-item searches of a level, the large kd sorts and the
/// zoom bands are spread over the processors; the searches only read the trees and node arrays,
/// each thread fills its own results, and the results are combined in order, so any number of
/// threads builds the same index.
final class ClusterBuilder: @unchecked Sendable {  // see `Shared`: parallel phases only read it
    private let options: ClusterOptions
    /// The threads the searches, sorts and bands are spread over.
    private let threads: Int
    private let organizationCount: Int
    private let groupCount: Int

    // Nodes (locations, then clusters as they are made), with room for every cluster there can be.
    private var nodeCount: Int
    private var x: UnsafeMutableBufferPointer<Double>
    private var y: UnsafeMutableBufferPointer<Double>
    private var count: UnsafeMutableBufferPointer<Int32>
    private var parent: UnsafeMutableBufferPointer<Int32>
    /// The zooms at which a node is shown: from the level above the one that took it (0 when
    /// none did) to the level that made it.
    private var zoomLow: UnsafeMutableBufferPointer<UInt8>
    private var zoomHigh: UnsafeMutableBufferPointer<UInt8>

    // The search state, freed before the result is laid out.
    /// The position in the level order, inherited from the seed: the number, in input order of
    /// their first organizations, of the location that started the chain of seeds.
    private var orderKey: UnsafeMutableBufferPointer<Int32>
    /// The level at which the node was taken (255: never), as supercluster's zoom field.
    private var takenAt: UnsafeMutableBufferPointer<UInt8>
    /// The level at which the node was added to the candidates (255: never), and for a due item
    /// with neighbours, the index of their range in the level's found list (else -1).
    private var candidateAt: UnsafeMutableBufferPointer<UInt8>
    private var foundIndex: UnsafeMutableBufferPointer<Int32>
    /// Where the node is in the search trees: slot s of the base as s, of the overlay as -2 - s,
    /// nowhere as -1.
    private var treeSlot: UnsafeMutableBufferPointer<Int32>
    private let base: SearchTree
    private let overlay: SearchTree

    /// Per level: the items whose event level it is; the clusters made and the items taken.
    private var events: [[Int32]] = []
    private var created: [Int] = []
    private var absorbed: [Int] = []

    /// The organizations in location order, as the index stores them.
    private let organizations: OrganizationArrays

    /// Builds the storage of an index over `organizations`.
    static func build(
        _ organizations: UnsafeBufferPointer<ClusterIndex.Organization>, options: ClusterOptions, threads: Int
    ) throws(ClusterIndexError) -> ClusterStorage {
        try options.validate()
        let builder: ClusterBuilder
        do {  // the grouping is freed once the locations are nodes
            let groups = try ColocatedGroups(organizations)
            builder = ClusterBuilder(options: options, threads: max(1, threads), organizations: organizations, groups: groups)
        }
        let separationZoom = builder.startEvents()
        for zoom in stride(from: separationZoom - 1, through: 0, by: -1) {
            builder.cluster(atLevel: zoom)
        }
        return builder.finish(separationZoom: separationZoom)
    }

    /// Makes the locations the first nodes, numbered in the kd order of the first base tree so
    /// that nodes near each other on the map are near each other in memory (their level order
    /// stays the input order of their first organizations), and lays out the organizations in
    /// that order.
    private init(
        options: ClusterOptions, threads: Int, organizations input: UnsafeBufferPointer<ClusterIndex.Organization>,
        groups: ColocatedGroups
    ) {
        self.options = options
        self.threads = threads
        organizationCount = input.count
        groupCount = groups.count
        nodeCount = groupCount
        // Room for every cluster there can be (fewer than the locations); a cluster's entries are
        // set when it is made, so the pages of clusters never made are never touched.
        let capacity = max(1, 2 * groupCount)
        x = allocateBuffer(capacity, initializing: groupCount, to: 0)
        y = allocateBuffer(capacity, initializing: groupCount, to: 0)
        count = allocateBuffer(capacity, initializing: groupCount, to: 0)
        parent = allocateBuffer(capacity, initializing: groupCount, to: -1)
        zoomLow = allocateBuffer(capacity, initializing: groupCount, to: 0)
        zoomHigh = allocateBuffer(capacity, initializing: groupCount, to: 0)
        orderKey = allocateBuffer(capacity, initializing: groupCount, to: 0)
        takenAt = allocateBuffer(capacity, initializing: groupCount, to: UInt8.max)
        candidateAt = allocateBuffer(capacity, initializing: groupCount, to: UInt8.max)
        foundIndex = allocateBuffer(capacity, initializing: groupCount, to: -1)
        treeSlot = allocateBuffer(capacity, initializing: groupCount, to: -1)
        base = SearchTree(capacity: groupCount, nodeSize: options.nodeSize, threads: threads)
        overlay = SearchTree(capacity: groupCount, nodeSize: options.nodeSize, threads: threads)
        organizations = OrganizationArrays(organizationCount: input.count, groupCount: groups.count)

        for group in 0..<groupCount { base.append(Int32(group), x: groups.x[group], y: groups.y[group]) }
        base.sort()
        var slot = 0
        for node in 0..<groupCount {
            let group = Int(base.ids[node])
            x[node] = groups.x[group]
            y[node] = groups.y[group]
            count[node] = groups.starts[group + 1] - groups.starts[group]
            orderKey[node] = Int32(group)
            base.ids[node] = Int32(node)
            treeSlot[node] = Int32(node)
            organizations.groupStarts[node] = Int32(slot)
            for member in Int(groups.starts[group])..<Int(groups.starts[group + 1]) {
                let organization = input[Int(groups.members[member])]
                organizations.ids[slot] = organization.id
                organizations.latitudes[slot] = organization.latitude
                organizations.longitudes[slot] = organization.longitude
                slot += 1
            }
        }
        organizations.groupStarts[groupCount] = Int32(slot)
    }

    deinit {
        for buffer in [x, y] { buffer.deallocate() }
        for buffer in [count, parent] { buffer.deallocate() }
        for buffer in [zoomLow, zoomHigh] { buffer.deallocate() }
        releaseSearchState()
        organizations.deallocate()
    }

    private var searchStateReleased = false

    /// Frees what only the clustering needs (once).
    private func releaseSearchState() {
        guard !searchStateReleased else { return }
        searchStateReleased = true
        for buffer in [orderKey, foundIndex, treeSlot] { buffer.deallocate() }
        for buffer in [takenAt, candidateAt] { buffer.deallocate() }
        base.deallocate()
        overlay.deallocate()
    }

    /// Computes the locations' event levels, from which the separation zoom follows: one above
    /// the highest event level (no pair is close enough above it), at most `maximumZoom`.
    private func startEvents() -> Int {
        // In node order, which is kd order, so that consecutive searches share their paths.
        let levels = Parallel.map(groupCount, threads: threads) { nodes in
            nodes.map { Int8(eventLevel(of: Int32($0), below: options.maximumZoom)) }
        }.flatMap { $0 }
        let separationZoom = Int(levels.max() ?? -1) + 1
        events = Array(repeating: [], count: max(0, separationZoom))
        created = Array(repeating: 0, count: separationZoom + 1)
        absorbed = Array(repeating: 0, count: separationZoom + 1)
        for node in 0..<groupCount {
            zoomHigh[node] = UInt8(separationZoom)
            if levels[node] >= 0 { events[Int(levels[node])].append(Int32(node)) }
        }
        return separationZoom
    }

    // MARK: Searches

    /// Visits every current item other than `item` whose squared distance from it is at most
    /// `squaredDistance` (d(z)²).
    @inline(__always)
    private func forEachNeighbour(of item: Int32, within distance: Double, squaredDistance: Double, _ visit: (Int32) -> Void) {
        let qx = x[Int(item)], qy = y[Int(item)]
        let radius = distance * (1 + 1e-9)
        Self.forEachNeighbour(in: base, of: item, x: qx, y: qy, radius: radius, squaredDistance: squaredDistance, visit)
        Self.forEachNeighbour(in: overlay, of: item, x: qx, y: qy, radius: radius, squaredDistance: squaredDistance, visit)
    }

    @inline(__always)
    private static func forEachNeighbour(
        in tree: SearchTree, of item: Int32, x qx: Double, y qy: Double, radius: Double, squaredDistance: Double,
        _ visit: (Int32) -> Void
    ) {
        guard tree.count > 0 else { return }
        let ids = tree.ids, gone = tree.gone
        tree.kdTree.within(x: qx, y: qy, radius: radius) { slot, squared in
            if gone[slot] != 0 || ids[slot] == item || squared > squaredDistance { return }
            visit(ids[slot])
        }
    }

    /// The highest level below `level` at which another current item lies within the clustering
    /// distance of `item`, or -1. Once an item is found within d(e), only items within
    /// d(e + 1) = d(e) / 2 could raise the answer, so the search narrows to that.
    private func eventLevel(of item: Int32, below level: Int) -> Int {
        guard level > 0 else { return -1 }
        let qx = x[Int(item)], qy = y[Int(item)]
        var event = -1
        /// How far an item must be to raise the event, or 0 when nothing can.
        func reach(above event: Int) -> Double {
            event + 1 < level ? options.distance(atZoom: event + 1) * (1 + 1e-9) : 0
        }
        // Items next to it in kd order are near it: they give a first answer.
        let slot = Int(treeSlot[Int(item)])
        let home = slot >= 0 ? base : overlay
        let homeSlot = slot >= 0 ? slot : -2 - slot
        for other in max(0, homeSlot - 3)..<min(home.count, homeSlot + 4) where other != homeSlot && home.gone[other] == 0 {
            let dx = home.coordinates[2 * other] - qx, dy = home.coordinates[2 * other + 1] - qy
            event = max(event, highestLevel(reaching: dx * dx + dy * dy, below: level))
        }
        var bound = reach(above: event)
        for tree in 0..<2 {
            let tree = tree == 0 ? base : overlay
            guard tree.count > 0, bound > 0 else { continue }
            let ids = tree.ids, gone = tree.gone
            bound = tree.kdTree.nearest(x: qx, y: qy, bound: bound, slack: 0) { slot, squared, bound in
                if gone[slot] != 0 || ids[slot] == item { return bound }
                let found = highestLevel(reaching: squared, below: level)
                guard found > event else { return bound }
                event = found
                return reach(above: found)
            }
        }
        return event
    }

    /// The highest level z below `level` whose clustering distance reaches an item at
    /// `squaredDistance` (compared as the clustering compares: squared distance <= d(z)²), or -1.
    @inline(__always)
    private func highestLevel(reaching squaredDistance: Double, below level: Int) -> Int {
        var zoom = min(level - 1, max(-1, (options.radius / options.extent / squaredDistance.squareRoot()).exponent + 1))
        while zoom >= 0 {
            let distance = options.distance(atZoom: zoom)
            if squaredDistance <= distance * distance { break }
            zoom -= 1
        }
        return zoom
    }

    // MARK: Levels

    /// Makes level `zoom` from level `zoom + 1`.
    private func cluster(atLevel zoom: Int) {
        let level = UInt8(zoom)
        let distance = options.distance(atZoom: zoom)
        let squaredDistance = distance * distance

        // The items whose event is this level, and with them their neighbours within the distance;
        // the neighbours of due items are kept for the greedy pass.
        let due = inTreeOrder(events[zoom])
        events[zoom] = []
        var candidates: [UInt64] = []  // level order, node
        var found: [Int32] = []
        var foundRanges: [Range<Int32>] = []
        func addCandidate(_ item: Int32) {
            if candidateAt[Int(item)] != level {
                candidateAt[Int(item)] = level
                foundIndex[Int(item)] = -1
                candidates.append(UInt64(UInt32(orderKey[Int(item)])) << 32 | UInt64(UInt32(item)))
            }
        }
        let neighbourLists = Parallel.map(due.count, threads: threads) { range in
            var lists = NeighbourLists()
            for item in due[range] {
                forEachNeighbour(of: item, within: distance, squaredDistance: squaredDistance) { lists.found.append($0) }
                lists.ends.append(Int32(lists.found.count))
            }
            return lists
        }
        var dueIndex = 0
        for lists in neighbourLists {
            var start = 0
            for end in lists.ends {
                let item = due[dueIndex]
                dueIndex += 1
                guard end > start else { continue }
                let first = found.count
                for neighbour in lists.found[start..<Int(end)] {
                    found.append(neighbour)
                    addCandidate(neighbour)
                }
                start = Int(end)
                addCandidate(item)
                foundIndex[Int(item)] = Int32(foundRanges.count)
                foundRanges.append(Int32(first)..<Int32(found.count))
            }
        }
        radixSort(&candidates)

        // Supercluster's greedy pass over them, in level order.
        let firstNew = nodeCount
        var taken: [Int32] = []
        var members: [UInt64] = []
        for key in candidates {
            let seed = Int32(truncatingIfNeeded: key)
            if takenAt[Int(seed)] == level { continue }
            takenAt[Int(seed)] = level
            members.removeAll(keepingCapacity: true)
            let rangeIndex = Int(foundIndex[Int(seed)])
            if rangeIndex >= 0 {
                for index in foundRanges[rangeIndex] {
                    let neighbour = found[Int(index)]
                    if takenAt[Int(neighbour)] != level {
                        members.append(UInt64(UInt32(orderKey[Int(neighbour)])) << 32 | UInt64(UInt32(neighbour)))
                    }
                }
            } else {
                forEachNeighbour(of: seed, within: distance, squaredDistance: squaredDistance) { neighbour in
                    if takenAt[Int(neighbour)] != level {
                        members.append(UInt64(UInt32(orderKey[Int(neighbour)])) << 32 | UInt64(UInt32(neighbour)))
                    }
                }
            }
            if members.isEmpty { continue }
            members.sort()
            let cluster = Int32(nodeCount)
            nodeCount += 1
            var total = Int(count[Int(seed)])
            var weightedX = x[Int(seed)] * Double(total)
            var weightedY = y[Int(seed)] * Double(total)
            parent[Int(seed)] = cluster
            zoomLow[Int(seed)] = level + 1
            taken.append(seed)
            for key in members {
                let member = Int(Int32(truncatingIfNeeded: key))
                takenAt[member] = level
                let weight = Int(count[member])
                weightedX += x[member] * Double(weight)
                weightedY += y[member] * Double(weight)
                total += weight
                parent[member] = cluster
                zoomLow[member] = level + 1
                taken.append(Int32(member))
            }
            let node = Int(cluster)
            (x + node).initialize(to: weightedX / Double(total))
            (y + node).initialize(to: weightedY / Double(total))
            (count + node).initialize(to: Int32(total))
            (orderKey + node).initialize(to: orderKey[Int(seed)])
            (zoomHigh + node).initialize(to: level)
            (zoomLow + node).initialize(to: 0)
            (parent + node).initialize(to: -1)
            (takenAt + node).initialize(to: UInt8.max)
            (candidateAt + node).initialize(to: UInt8.max)
            (foundIndex + node).initialize(to: -1)
            (treeSlot + node).initialize(to: -1)
        }
        let made = nodeCount - firstNew
        created[zoom] = made
        absorbed[zoom] = taken.count
        guard zoom > 0 else { return }

        // The level is done: taken items leave the trees, new clusters join the overlay.
        if made > 0 {
            for item in taken {
                let slot = Int(treeSlot[Int(item)])
                if slot >= 0 { base.markGone(slot) } else if slot <= -2 { overlay.markGone(-2 - slot) }
                treeSlot[Int(item)] = -1
            }
            let overlaySize = overlay.count - overlay.goneCount + made
            if 3 * base.goneCount > base.count || 4 * overlaySize > base.count - base.goneCount {
                rebuildBase()
            } else {
                rebuildOverlay(adding: firstNew..<nodeCount)
            }
        }

        // The due items that are still there get their next event from their nearest item; new
        // clusters are simply due at the next level, the highest their event can be (most meet
        // something there, and those that do not are looked at again like any due item).
        let survivors = inTreeOrder(due)
        let levels = Parallel.map(survivors.count, threads: threads) { range in
            survivors[range].map { eventLevel(of: $0, below: zoom) }
        }.flatMap { $0 }
        for (item, level) in zip(survivors, levels) where level >= 0 { events[level].append(item) }
        events[zoom - 1] += (firstNew..<nodeCount).map { Int32($0) }
    }

    /// The current items among `items` in the order of their tree entries (base, then overlay),
    /// so that consecutive searches walk nearby parts of the trees.
    private func inTreeOrder(_ items: [Int32]) -> [Int32] {
        var keyed: [UInt64] = []
        keyed.reserveCapacity(items.count)
        for item in items where parent[Int(item)] < 0 {
            let slot = Int(treeSlot[Int(item)])
            let position = slot >= 0 ? slot : base.count + (-2 - slot)
            keyed.append(UInt64(position) << 32 | UInt64(UInt32(item)))
        }
        radixSort(&keyed)
        return keyed.map { Int32(truncatingIfNeeded: $0) }
    }

    /// The neighbours found for a run of due items: each item's end in `found`.
    private struct NeighbourLists {
        var found: [Int32] = []
        var ends: [Int32] = []
    }

    /// Makes the base tree over all current items, and the overlay empty.
    private func rebuildBase() {
        base.removeAll()
        for node in 0..<nodeCount where parent[node] < 0 {
            base.append(Int32(node), x: x[node], y: y[node])
        }
        base.sort()
        overlay.removeAll()
        for slot in 0..<base.count { treeSlot[Int(base.ids[slot])] = Int32(slot) }
    }

    /// Makes the overlay tree over the clusters it held that are still there and `added`.
    private func rebuildOverlay(adding added: Range<Int>) {
        overlay.removeGone()
        for node in added { overlay.append(Int32(node), x: x[node], y: y[node]) }
        overlay.sort()
        for slot in 0..<overlay.count { treeSlot[Int(overlay.ids[slot])] = -2 - Int32(slot) }
    }

    // MARK: Finish

    /// Lays the result out in the index's arrays.
    private func finish(separationZoom: Int) -> ClusterStorage {
        releaseSearchState()
        var allocations: [UnsafeMutableRawPointer] = []
        func keep<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UnsafeBufferPointer<T> {
            allocations.append(UnsafeMutableRawPointer(buffer.baseAddress!))
            return UnsafeBufferPointer(buffer)
        }
        let clusterCount = nodeCount - groupCount
        let groupStarts = organizations.groupStarts
        let latitudes = organizations.latitudes, longitudes = organizations.longitudes

        // Zooms of every node.
        let nodeZooms = allocateBuffer(2 * nodeCount, repeating: UInt8(0))
        for node in 0..<nodeCount {
            nodeZooms[2 * node] = zoomLow[node]
            nodeZooms[2 * node + 1] = zoomHigh[node]
        }

        // Clusters: counts, centres, children, boxes (children come before their parents).
        let clusterCounts = allocateBuffer(clusterCount, repeating: Int32(0))
        let clusterPositions = allocateBuffer(2 * clusterCount, repeating: 0.0)
        let childStarts = allocateBuffer(clusterCount + 1, repeating: Int32(0))
        for cluster in 0..<clusterCount {
            let node = groupCount + cluster
            clusterCounts[cluster] = count[node]
            clusterPositions[2 * cluster] = x[node]
            clusterPositions[2 * cluster + 1] = y[node]
        }
        var childCount = 0
        for node in 0..<nodeCount where parent[node] >= 0 {
            childStarts[Int(parent[node]) - groupCount + 1] += 1
            childCount += 1
        }
        for cluster in 0..<clusterCount { childStarts[cluster + 1] += childStarts[cluster] }
        let children = allocateBuffer(childCount, repeating: Int32(0))
        var fill = Array(childStarts.prefix(clusterCount))
        for node in 0..<nodeCount where parent[node] >= 0 {
            let cluster = Int(parent[node]) - groupCount
            children[Int(fill[cluster])] = Int32(node)
            fill[cluster] += 1
        }
        fill = []
        let clusterBounds = allocateBuffer(4 * clusterCount, repeating: Float(0))
        for cluster in 0..<clusterCount {
            var south = Float.infinity, west = Float.infinity, north = -Float.infinity, east = -Float.infinity
            for slot in Int(childStarts[cluster])..<Int(childStarts[cluster + 1]) {
                let child = Int(children[slot])
                if child < groupCount {
                    for member in Int(groupStarts[child])..<Int(groupStarts[child + 1]) {
                        south = min(south, Float(roundingDown: latitudes[member]))
                        west = min(west, Float(roundingDown: longitudes[member]))
                        north = max(north, Float(roundingUp: latitudes[member]))
                        east = max(east, Float(roundingUp: longitudes[member]))
                    }
                } else {
                    let bounds = 4 * (child - groupCount)
                    south = min(south, clusterBounds[bounds])
                    west = min(west, clusterBounds[bounds + 1])
                    north = max(north, clusterBounds[bounds + 2])
                    east = max(east, clusterBounds[bounds + 3])
                }
            }
            clusterBounds[4 * cluster] = south
            clusterBounds[4 * cluster + 1] = west
            clusterBounds[4 * cluster + 2] = north
            clusterBounds[4 * cluster + 3] = east
        }

        let bands = makeBands(separationZoom: separationZoom)
        organizations.handedOver = true
        return ClusterStorage(
            options: options, organizationCount: organizationCount, groupCount: groupCount,
            clusterCount: clusterCount, separationZoom: separationZoom,
            arrays: .init(
                organizationIDs: keep(organizations.ids), organizationLatitudes: keep(latitudes),
                organizationLongitudes: keep(longitudes), groupStarts: keep(groupStarts),
                nodeZooms: keep(nodeZooms), clusterCounts: keep(clusterCounts),
                clusterPositions: keep(clusterPositions), clusterBounds: keep(clusterBounds),
                childStarts: keep(childStarts), children: keep(children),
                bandZooms: keep(bands.zooms), bandStarts: keep(bands.starts), bandIDs: keep(bands.ids),
                bandCoordinates: keep(bands.coordinates), bandEntryZooms: keep(bands.entryZooms)),
            allocations: allocations)
    }

    /// How many times more entries than items shown a band's tree may hold at its lowest zoom.
    static let bandSlack = 3.0

    /// Groups the zooms into bands, from the top: a band grows downwards while its tree (every
    /// node shown at one of its zooms) stays within `bandSlack` times the items of its lowest
    /// zoom. Near the separation zoom, where levels differ little, one tree serves many zooms;
    /// the low zooms, whose few items would be lost among the others, get trees of their own.
    private func makeBands(separationZoom: Int) -> (
        zooms: UnsafeMutableBufferPointer<UInt8>, starts: UnsafeMutableBufferPointer<Int32>,
        ids: UnsafeMutableBufferPointer<Int32>, coordinates: UnsafeMutableBufferPointer<Double>,
        entryZooms: UnsafeMutableBufferPointer<UInt8>
    ) {
        var shown = [Int](repeating: 0, count: separationZoom + 1)
        shown[separationZoom] = groupCount
        for zoom in stride(from: separationZoom - 1, through: 0, by: -1) {
            shown[zoom] = shown[zoom + 1] + created[zoom] - absorbed[zoom]
        }
        var ranges: [(low: Int, high: Int, entries: Int)] = []
        var high = separationZoom
        while high >= 0 {
            var low = high
            var entries = shown[high]
            while low > 0 {
                let grown = entries + created[low - 1]
                if Double(grown) > Self.bandSlack * Double(shown[low - 1]) { break }
                entries = grown
                low -= 1
            }
            ranges.append((low, high, entries))
            high = low - 1
        }
        let total = ranges.reduce(0) { $0 + $1.entries }
        let zooms = allocateBuffer(2 * ranges.count, repeating: UInt8(0))
        let starts = allocateBuffer(ranges.count + 1, repeating: Int32(0))
        let ids = allocateBuffer(total, repeating: Int32(0))
        let coordinates = allocateBuffer(2 * total, repeating: 0.0)
        let entryZooms = allocateBuffer(2 * total, repeating: UInt8(0))
        var slot = 0
        for (band, range) in ranges.enumerated() {
            zooms[2 * band] = UInt8(range.low)
            zooms[2 * band + 1] = UInt8(range.high)
            starts[band] = Int32(slot)
            slot += range.entries
        }
        // The bands are independent: each fills and sorts its own part of the arrays.
        Parallel.forEach(ranges.count, threads: threads) { band in
            let range = ranges[band]
            let first = Int(starts[band])
            var slot = first
            for node in 0..<nodeCount
            where Int(zoomLow[node]) <= range.high && Int(zoomHigh[node]) >= range.low {
                ids[slot] = Int32(node)
                coordinates[2 * slot] = x[node]
                coordinates[2 * slot + 1] = y[node]
                slot += 1
            }
            precondition(slot - first == range.entries, "band \(band) holds \(slot - first) entries, expected \(range.entries)")
            KDTree.sort(ids: ids.baseAddress! + first, coordinates: coordinates.baseAddress! + 2 * first,
                        count: slot - first, nodeSize: options.nodeSize)
            for entry in first..<slot {
                let node = Int(ids[entry])
                entryZooms[2 * entry] = zoomLow[node]
                entryZooms[2 * entry + 1] = zoomHigh[node]
            }
        }
        starts[ranges.count] = Int32(slot)
        return (zooms, starts, ids, coordinates, entryZooms)
    }
}

extension UnsafeMutableBufferPointer {
    /// Adds `offset` to the base address, for initializing one element in place.
    fileprivate static func + (buffer: Self, offset: Int) -> UnsafeMutablePointer<Element> {
        buffer.baseAddress! + offset
    }
}

/// A buffer of `capacity` elements whose first `count` are set to `value`; the rest are to be
/// initialized before use (their pages stay untouched until then).
private func allocateBuffer<T>(_ capacity: Int, initializing count: Int, to value: T) -> UnsafeMutableBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: capacity)
    buffer.baseAddress!.initialize(repeating: value, count: count)
    return buffer
}

extension Float {
    /// The greatest float not above `value`.
    init(roundingDown value: Double) {
        let float = Float(value)
        self = Double(float) > value ? float.nextDown : float
    }

    /// The least float not below `value`.
    init(roundingUp value: Double) {
        let float = Float(value)
        self = Double(float) < value ? float.nextUp : float
    }
}

/// The organizations in location order, with the location starts: the index's first arrays,
/// made at the start of a build so that the input copy can be freed.
final class OrganizationArrays {
    let ids: UnsafeMutableBufferPointer<Int64>
    let latitudes: UnsafeMutableBufferPointer<Double>
    let longitudes: UnsafeMutableBufferPointer<Double>
    let groupStarts: UnsafeMutableBufferPointer<Int32>
    /// Set when a storage owns the buffers.
    var handedOver = false

    init(organizationCount: Int, groupCount: Int) {
        ids = allocateBuffer(organizationCount, repeating: 0)
        latitudes = allocateBuffer(organizationCount, repeating: 0)
        longitudes = allocateBuffer(organizationCount, repeating: 0)
        groupStarts = allocateBuffer(groupCount + 1, repeating: 0)
    }

    func deallocate() {
        guard !handedOver else { return }
        ids.deallocate(); latitudes.deallocate(); longitudes.deallocate(); groupStarts.deallocate()
    }
}

/// A kd-tree of current items for the builder's searches, with a flag per entry for items taken
/// since it was sorted.
final class SearchTree {
    let ids: UnsafeMutableBufferPointer<Int32>
    let coordinates: UnsafeMutableBufferPointer<Double>
    let gone: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private(set) var goneCount = 0
    private let nodeSize: Int
    private let threads: Int

    init(capacity: Int, nodeSize: Int, threads: Int) {
        self.threads = threads
        // Entries are written before they are read: the pages of an overlay that stays small are
        // never touched.
        ids = allocateBuffer(capacity, initializing: 0, to: 0)
        coordinates = allocateBuffer(2 * capacity, initializing: 0, to: 0)
        gone = allocateBuffer(capacity, initializing: 0, to: 0)
        self.nodeSize = nodeSize
    }

    private var deallocated = false

    deinit { deallocate() }

    /// Frees the tree's memory (once); it must not be searched afterwards.
    func deallocate() {
        guard !deallocated else { return }
        deallocated = true
        count = 0
        ids.deallocate(); coordinates.deallocate(); gone.deallocate()
    }

    var kdTree: KDTree {
        KDTree(ids: UnsafePointer(ids.baseAddress!), coordinates: UnsafePointer(coordinates.baseAddress!),
               count: count, nodeSize: nodeSize)
    }

    func removeAll() {
        count = 0
        goneCount = 0
    }

    func append(_ id: Int32, x: Double, y: Double) {
        ids[count] = id
        coordinates[2 * count] = x
        coordinates[2 * count + 1] = y
        gone[count] = 0
        count += 1
    }

    func markGone(_ slot: Int) {
        gone[slot] = 1
        goneCount += 1
    }

    /// Keeps only the entries not gone (unsorted).
    func removeGone() {
        var kept = 0
        for slot in 0..<count where gone[slot] == 0 {
            ids[kept] = ids[slot]
            coordinates[2 * kept] = coordinates[2 * slot]
            coordinates[2 * kept + 1] = coordinates[2 * slot + 1]
            gone[kept] = 0
            kept += 1
        }
        count = kept
        goneCount = 0
    }

    func sort() {
        KDTree.sort(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: count, nodeSize: nodeSize, threads: threads)
    }
}
