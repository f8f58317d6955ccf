/// The index's nodes for its readers beyond ``ClusterIndex/forEachItem(west:south:east:north:zoom:_:)``:
/// views in Web Mercator units (a tile's box is exact there, not in degrees), the whole of one level,
/// items' positions, counts per node of the organizations that pass a test (clubs and museums per
/// cluster, from the leaves in one pass; the database's museum counts), the large locations and an
/// identity for caches. They read the index's private arrays, so they stay beside them: the tiles
/// (HubGeoTiles) call them and are the only code that encodes tiles.
extension ClusterIndex {
    /// Visits the items of `zoom` (clamped to 0...separationZoom) whose Web Mercator position lies
    /// in the box (edges inclusive, units of the unit square; no wrapping: the caller asks for
    /// the pieces of a box that crosses the antimeridian).
    package func forEachItem(minX: Double, minY: Double, maxX: Double, maxY: Double, zoom: Int,
                             _ visit: (Item) throws -> Void) rethrows {
        guard storage.nodeCount > 0, minX <= maxX, minY <= maxY else { return }
        let level = min(storage.separationZoom, max(0, zoom))
        try forEachNode(minX: minX, minY: minY, maxX: maxX, maxY: maxY, level: level) { node, x, y in
            try visit(item(node: node, x: x, y: y))
        }
    }

    /// The number of nodes (locations, then clusters): item ids are below it.
    package var nodeCount: Int { storage.nodeCount }

    /// Per node (item id), how many of its organizations `includes` accepts (called once per
    /// organization with its id). Children have smaller numbers than their cluster, so one pass
    /// up the node numbers sums them: O(organizations + nodes).
    package func nodeCounts(where includes: (Int64) throws -> Bool) rethrows -> [UInt32] {
        let storage = self.storage
        var counts = [UInt32](repeating: 0, count: storage.nodeCount)
        for group in 0..<storage.groupCount {
            var count: UInt32 = 0
            for slot in Int(storage.groupStarts[group])..<Int(storage.groupStarts[group + 1])
            where try includes(storage.organizationIDs[slot]) {
                count += 1
            }
            counts[group] = count
        }
        for cluster in 0..<storage.clusterCount {
            var count: UInt32 = 0
            for slot in Int(storage.childStarts[cluster])..<Int(storage.childStarts[cluster + 1]) {
                count += counts[Int(storage.children[slot])]
            }
            counts[storage.groupCount + cluster] = count
        }
        return counts
    }

    /// The locations (item ids below ``locationCount``) of more than `count` organizations each
    /// (co-located groups that a list of `count` does not show whole).
    package func locations(holdingMoreThan count: Int) -> [Int] {
        let starts = storage.groupStarts
        return (0..<storage.groupCount).filter { Int(starts[$0 + 1] - starts[$0]) > count }
    }

    /// An identity of the index's arrays: equal for copies of one index (loaded once), different
    /// for another load or build. For keeping values computed from an index beside it.
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
}

extension ClusterIndex.Item {
    /// The Web Mercator position (the unit square, y growing south), as the index compares it.
    package var mercatorX: Double { x }
    package var mercatorY: Double { y }
}
