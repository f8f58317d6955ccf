import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A static two-dimensional kd-tree in the layout of KDBush: no nodes, only two flat arrays in
/// "kd order", the item ids and their interleaved coordinates (x0, y0, x1, y1, …). The middle
/// element of every range splits it on x or y in turn, recursively, down to runs of at most
/// `nodeSize` items, which are scanned. It never changes once sorted, so its arrays can be
/// written to disk and read back as they are.
///
/// A view over memory that its owner keeps alive; visitors receive a slot (a position in the
/// arrays), from which the caller reads the id and whatever it stores alongside in the same order.
struct KDTree {
    let ids: UnsafePointer<Int32>
    let coordinates: UnsafePointer<Double>
    let count: Int
    let nodeSize: Int

    /// The deepest stack of ranges a search can need: two per level of a tree of 2^62 items.
    private static let stackCapacity = 3 * 128

    /// Sorts `count` ids and their coordinates into kd order, in place; with `threads` above 1,
    /// the halves of large ranges are sorted in parallel (the result is the same).
    static func sort(
        ids: UnsafeMutablePointer<Int32>, coordinates: UnsafeMutablePointer<Double>, count: Int, nodeSize: Int,
        threads: Int = 1
    ) {
        guard count > 1 else { return }
        var depth = 0  // levels of halving done in parallel
        while 1 << depth < threads { depth += 1 }
        sort(ids, coordinates, nodeSize: max(1, nodeSize), left: 0, right: count - 1, axis: 0, parallelDepth: depth)
    }

    private static func sort(
        _ ids: UnsafeMutablePointer<Int32>, _ coordinates: UnsafeMutablePointer<Double>,
        nodeSize: Int, left: Int, right: Int, axis: Int, parallelDepth: Int
    ) {
        guard parallelDepth > 0, right - left > 65536 else {
            sort(ids, coordinates, nodeSize: nodeSize, left: left, right: right, axis: axis)
            return
        }
        let middle = (left + right) >> 1
        select(ids, coordinates, k: middle, left: left, right: right, axis: axis)
        let shared = Shared((ids, coordinates))
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let (ids, coordinates) = shared.value
            sort(ids, coordinates, nodeSize: nodeSize, left: half == 0 ? left : middle + 1,
                 right: half == 0 ? middle - 1 : right, axis: 1 - axis, parallelDepth: parallelDepth - 1)
        }
    }

    private static func sort(
        _ ids: UnsafeMutablePointer<Int32>, _ coordinates: UnsafeMutablePointer<Double>,
        nodeSize: Int, left: Int, right: Int, axis: Int
    ) {
        if right - left <= nodeSize { return }
        let middle = (left + right) >> 1
        select(ids, coordinates, k: middle, left: left, right: right, axis: axis)
        sort(ids, coordinates, nodeSize: nodeSize, left: left, right: middle - 1, axis: 1 - axis)
        sort(ids, coordinates, nodeSize: nodeSize, left: middle + 1, right: right, axis: 1 - axis)
    }

    /// Floyd–Rivest selection: afterwards the items in [left, k) are not greater than the k-th on
    /// `axis`, and those in (k, right] not smaller.
    private static func select(
        _ ids: UnsafeMutablePointer<Int32>, _ coordinates: UnsafeMutablePointer<Double>,
        k: Int, left: Int, right: Int, axis: Int
    ) {
        var left = left
        var right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(ids, coordinates, k: k, left: newLeft, right: newRight, axis: axis)
            }
            let pivot = coordinates[2 * k + axis]
            var i = left
            var j = right
            swapItems(ids, coordinates, left, k)
            if coordinates[2 * right + axis] > pivot { swapItems(ids, coordinates, left, right) }
            while i < j {
                swapItems(ids, coordinates, i, j)
                i += 1
                j -= 1
                while coordinates[2 * i + axis] < pivot { i += 1 }
                while coordinates[2 * j + axis] > pivot { j -= 1 }
            }
            if coordinates[2 * left + axis] == pivot {
                swapItems(ids, coordinates, left, j)
            } else {
                j += 1
                swapItems(ids, coordinates, j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private static func swapItems(
        _ ids: UnsafeMutablePointer<Int32>, _ coordinates: UnsafeMutablePointer<Double>, _ i: Int, _ j: Int
    ) {
        swap(&ids[i], &ids[j])
        swap(&coordinates[2 * i], &coordinates[2 * j])
        swap(&coordinates[2 * i + 1], &coordinates[2 * j + 1])
    }

    /// Visits the slot of every item with minX <= x <= maxX and minY <= y <= maxY.
    @inline(__always)
    func range(minX: Double, minY: Double, maxX: Double, maxY: Double, _ visit: (Int) throws -> Void) rethrows {
        guard count > 0 else { return }
        let coordinates = self.coordinates
        let nodeSize = self.nodeSize
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.stackCapacity) { stack in
            var top = 0
            stack[0] = 0
            stack[1] = count - 1
            stack[2] = 0
            top = 3
            while top > 0 {
                let axis = stack[top - 1]
                let right = stack[top - 2]
                let left = stack[top - 3]
                top -= 3
                if right - left <= nodeSize {
                    for slot in stride(from: left, through: right, by: 1) {
                        let x = coordinates[2 * slot], y = coordinates[2 * slot + 1]
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { try visit(slot) }
                    }
                    continue
                }
                let middle = (left + right) >> 1
                let x = coordinates[2 * middle], y = coordinates[2 * middle + 1]
                if x >= minX && x <= maxX && y >= minY && y <= maxY { try visit(middle) }
                if axis == 0 ? minX <= x : minY <= y {
                    stack[top] = left; stack[top + 1] = middle - 1; stack[top + 2] = 1 - axis
                    top += 3
                }
                if axis == 0 ? maxX >= x : maxY >= y {
                    stack[top] = middle + 1; stack[top + 1] = right; stack[top + 2] = 1 - axis
                    top += 3
                }
            }
        }
    }

    /// Visits the slot and squared distance of every item within `radius` of (qx, qy).
    @inline(__always)
    func within(x qx: Double, y qy: Double, radius: Double, _ visit: (_ slot: Int, _ squaredDistance: Double) -> Void) {
        guard count > 0 else { return }
        let coordinates = self.coordinates
        let nodeSize = self.nodeSize
        let r2 = radius * radius
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.stackCapacity) { stack in
            var top = 0
            stack[0] = 0
            stack[1] = count - 1
            stack[2] = 0
            top = 3
            while top > 0 {
                let axis = stack[top - 1]
                let right = stack[top - 2]
                let left = stack[top - 3]
                top -= 3
                if right - left <= nodeSize {
                    for slot in stride(from: left, through: right, by: 1) {
                        let dx = coordinates[2 * slot] - qx, dy = coordinates[2 * slot + 1] - qy
                        let d2 = dx * dx + dy * dy
                        if d2 <= r2 { visit(slot, d2) }
                    }
                    continue
                }
                let middle = (left + right) >> 1
                let x = coordinates[2 * middle], y = coordinates[2 * middle + 1]
                let dx = x - qx, dy = y - qy
                let d2 = dx * dx + dy * dy
                if d2 <= r2 { visit(middle, d2) }
                if axis == 0 ? qx - radius <= x : qy - radius <= y {
                    stack[top] = left; stack[top + 1] = middle - 1; stack[top + 2] = 1 - axis
                    top += 3
                }
                if axis == 0 ? qx + radius >= x : qy + radius >= y {
                    stack[top] = middle + 1; stack[top + 1] = right; stack[top + 2] = 1 - axis
                    top += 3
                }
            }
        }
    }

    /// A nearest-neighbour search whose candidates the caller judges: visits, nearest side first,
    /// the slot and squared distance of items that may lie within `bound + slack` of (qx, qy),
    /// where `visit` returns the (possibly smaller) bound to go on with; returns the last bound.
    /// With slack 0 and a `visit` that returns min(bound, distance) it finds the nearest
    /// neighbour closer than the initial bound; the slack lets an item stand for others up to
    /// that far from it.
    @inline(__always)
    func nearest(
        x qx: Double, y qy: Double, bound initialBound: Double, slack: Double,
        _ visit: (_ slot: Int, _ squaredDistance: Double, _ bound: Double) -> Double
    ) -> Double {
        var bound = initialBound
        guard count > 0 else { return bound }
        let coordinates = self.coordinates
        let nodeSize = self.nodeSize
        var limit = bound + slack
        var limit2 = limit * limit
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.stackCapacity) { stack in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.stackCapacity / 3) { gaps in
                // Entries: left, right, axis, and in `gaps` the distance from the query to the range.
                stack[0] = 0
                stack[1] = count - 1
                stack[2] = 0
                gaps[0] = 0
                var top = 1
                while top > 0 {
                    top -= 1
                    let gap = gaps[top]
                    let left = stack[3 * top], right = stack[3 * top + 1], axis = stack[3 * top + 2]
                    if gap > limit { continue }
                    if right - left <= nodeSize {
                        var slot = left
                        while slot <= right {
                            let dx = coordinates[2 * slot] - qx, dy = coordinates[2 * slot + 1] - qy
                            let d2 = dx * dx + dy * dy
                            if d2 <= limit2 {
                                bound = visit(slot, d2, bound)
                                limit = bound + slack
                                limit2 = limit * limit
                            }
                            slot += 1
                        }
                        continue
                    }
                    let middle = (left + right) >> 1
                    let x = coordinates[2 * middle], y = coordinates[2 * middle + 1]
                    let dx = x - qx, dy = y - qy
                    let d2 = dx * dx + dy * dy
                    if d2 <= limit2 {
                        bound = visit(middle, d2, bound)
                        limit = bound + slack
                        limit2 = limit * limit
                    }
                    let split = axis == 0 ? dx : dy  // >= 0: the query is on the lower side
                    let farGap = max(gap, abs(split))
                    let lowerFirst = split >= 0
                    // Far side first on the stack, so that the near side is searched first.
                    if farGap <= limit {
                        let (farLeft, farRight) = lowerFirst ? (middle + 1, right) : (left, middle - 1)
                        if farLeft <= farRight {
                            stack[3 * top] = farLeft; stack[3 * top + 1] = farRight; stack[3 * top + 2] = 1 - axis
                            gaps[top] = farGap
                            top += 1
                        }
                    }
                    let (nearLeft, nearRight) = lowerFirst ? (left, middle - 1) : (middle + 1, right)
                    if nearLeft <= nearRight {
                        stack[3 * top] = nearLeft; stack[3 * top + 1] = nearRight; stack[3 * top + 2] = 1 - axis
                        gaps[top] = gap
                        top += 1
                    }
                }
            }
        }
        return bound
    }
}
