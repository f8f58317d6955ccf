import Testing
@testable import HubGeoClusters

/// The kd-tree finds what a scan finds: ranges, discs and nearest neighbours, with duplicates
/// and leaves of every size.
@Suite("KD-tree")
struct KDTreeTests {
    @Test(arguments: [1, 2, 5, 64])
    func searchesFindWhatAScanFinds(nodeSize: Int) {
        var random = SplitMix64(seed: UInt64(nodeSize))
        var points: [(x: Double, y: Double)] = (0..<3000).map { _ in
            (Double.random(in: 0...1, using: &random), Double.random(in: 0...1, using: &random))
        }
        points += points.prefix(300)  // duplicates
        points += (0..<200).map { _ in (0.5, Double.random(in: 0...1, using: &random)) }  // one x for many
        var ids = points.indices.map { Int32($0) }
        var coordinates = points.flatMap { [$0.x, $0.y] }
        ids.withUnsafeMutableBufferPointer { ids in
            coordinates.withUnsafeMutableBufferPointer { coordinates in
                KDTree.sort(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: points.count, nodeSize: nodeSize)
            }
        }
        #expect(Set(ids) == Set(points.indices.map { Int32($0) }))
        for slot in ids.indices {
            #expect(coordinates[2 * slot] == points[Int(ids[slot])].x && coordinates[2 * slot + 1] == points[Int(ids[slot])].y)
        }
        ids.withUnsafeBufferPointer { ids in
            coordinates.withUnsafeBufferPointer { coordinates in
                let tree = KDTree(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: points.count, nodeSize: nodeSize)
                for _ in 0..<200 {
                    let minX = Double.random(in: -0.1...1, using: &random), minY = Double.random(in: -0.1...1, using: &random)
                    let maxX = minX + Double.random(in: 0...0.3, using: &random), maxY = minY + Double.random(in: 0...0.3, using: &random)
                    var found: [Int32] = []
                    tree.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { found.append(ids[$0]) }
                    let expected = points.indices.filter {
                        points[$0].x >= minX && points[$0].x <= maxX && points[$0].y >= minY && points[$0].y <= maxY
                    }.map { Int32($0) }
                    #expect(found.sorted() == expected)

                    let qx = Double.random(in: 0...1, using: &random), qy = Double.random(in: 0...1, using: &random)
                    let radius = Double.random(in: 0...0.2, using: &random)
                    var near: [Int32] = []
                    tree.within(x: qx, y: qy, radius: radius) { slot, squared in
                        near.append(ids[slot])
                        #expect(squared == (coordinates[2 * slot] - qx) * (coordinates[2 * slot] - qx)
                            + (coordinates[2 * slot + 1] - qy) * (coordinates[2 * slot + 1] - qy))
                    }
                    let inside = points.indices.filter {
                        let dx = points[$0].x - qx, dy = points[$0].y - qy
                        return dx * dx + dy * dy <= radius * radius
                    }.map { Int32($0) }
                    #expect(near.sorted() == inside)

                    var nearestSquared = Double.infinity
                    _ = tree.nearest(x: qx, y: qy, bound: 2, slack: 0) { _, squared, bound in
                        nearestSquared = min(nearestSquared, squared)
                        return min(bound, squared.squareRoot() * (1 + 1e-9))
                    }
                    let scanned = points.map { ($0.x - qx) * ($0.x - qx) + ($0.y - qy) * ($0.y - qy) }.min()!
                    #expect(nearestSquared == scanned)
                }
            }
        }
    }

    /// Large ranges are split in parallel; the order is the one a single thread makes.
    @Test func aParallelSortSortsAsOneThreadDoes() {
        var random = SplitMix64(seed: 9)
        let count = 150_000
        let coordinates = (0..<(2 * count)).map { _ in Double.random(in: 0...1, using: &random) }
        func sorted(threads: Int) -> ([Int32], [Double]) {
            var ids = (0..<count).map { Int32($0) }
            var coordinates = coordinates
            ids.withUnsafeMutableBufferPointer { ids in
                coordinates.withUnsafeMutableBufferPointer { coordinates in
                    KDTree.sort(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: count,
                                nodeSize: 64, threads: threads)
                }
            }
            return (ids, coordinates)
        }
        let one = sorted(threads: 1)
        for threads in [2, 4] {
            let many = sorted(threads: threads)
            #expect(many.0 == one.0 && many.1 == one.1, "\(threads) threads")
        }
    }

    @Test func emptyAndSingleTrees() {
        var ids: [Int32] = [9]
        var coordinates: [Double] = [0.25, 0.75]
        ids.withUnsafeMutableBufferPointer { ids in
            coordinates.withUnsafeMutableBufferPointer { coordinates in
                KDTree.sort(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: 1, nodeSize: 1)
                for count in [0, 1] {
                    let tree = KDTree(ids: ids.baseAddress!, coordinates: coordinates.baseAddress!, count: count, nodeSize: 1)
                    var found: [Int] = []
                    tree.range(minX: 0, minY: 0, maxX: 1, maxY: 1) { found.append($0) }
                    tree.within(x: 0.25, y: 0.75, radius: 0) { slot, _ in found.append(slot) }
                    #expect(found == (count == 1 ? [0, 0] : []))
                }
            }
        }
    }
}
