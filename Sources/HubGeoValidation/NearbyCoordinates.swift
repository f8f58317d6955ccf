import Foundation
import HubGeoModel

/// Which points lie within a few metres of an earlier one, in time linear in the number of points
/// whatever their layout.
///
/// A sweep over latitude-sorted points compares every pair that shares a latitude band, which is
/// quadratic when many points share a latitude: a hostile pull request with 100,000 organizations
/// on one parallel took minutes in `validate`. Here the points go into cells about `meters` wide
/// (rows of latitude, each cut into as many columns of longitude as its most poleward latitude
/// allows, one column near a pole; columns wrap at the antimeridian), and each point is compared
/// only with the earlier points of the nine cells around it, stopping at the first close one.
/// Points reported against the first earlier close point (not against each) keep the output
/// linear too: 1,000 organizations at one spot give 999 findings, not 499,500.
package enum NearbyCoordinates {
    /// For each point that lies within `meters` (ellipsoidal) of an earlier point of `points`:
    /// its index, the index of the first such earlier point, and the distance; by index.
    package static func firstCloseEarlier(_ points: [GeoPoint], within meters: Double) -> [(index: Int, earlier: Int, meters: Double)] {
        guard meters > 0, points.count > 1 else { return [] }
        // Metres per degree of latitude are at least 110,574 (at the equator); of longitude at least
        // 111,319 × cos(latitude). 1 % margin either way.
        let rowHeight = meters / 110_574 * 1.01
        let rows = max(1, Int((180 / rowHeight).rounded(.up)))
        func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int((latitude + 90) / rowHeight))) }
        // A row's columns are as wide as `meters` at the most poleward latitude of the row and its
        // neighbours, so that a close point in the next row is never two columns away.
        var columnCounts: [Int: Int] = [:]
        func columns(_ row: Int) -> Int {
            if let count = columnCounts[row] { return count }
            let poleward = max(abs(Double(row - 1) * rowHeight - 90), abs(Double(row + 2) * rowHeight - 90))
            let metresPerDegree = 111_319 * cos(min(90, poleward) * .pi / 180)
            let width = metresPerDegree > 0 ? meters / metresPerDegree * 1.01 : 360
            let count = width >= 120 ? 1 : Int(360 / width)
            columnCounts[row] = count
            return count
        }
        func column(_ longitude: Double, in row: Int) -> Int {
            let count = columns(row)
            return min(count - 1, max(0, Int((longitude + 180) / 360 * Double(count))))
        }
        struct Cell: Hashable { var row: Int, column: Int }
        struct Spot: Hashable { var latitude: Double, longitude: Double }
        // Each cell holds the first point at each distinct spot, in index order. A later point at a
        // spot has the same close earlier points as the first one there, and that one besides: its
        // answer is the first one's, or else the first one at 0 m (copies of one spot, however
        // many, cost no comparison).
        var cells: [Cell: [Int]] = [:]
        var answerAt: [Spot: (earlier: Int, meters: Double)] = [:]
        var found: [(index: Int, earlier: Int, meters: Double)] = []
        for (index, point) in points.enumerated() {
            let spot = Spot(latitude: point.latitude, longitude: point.longitude)
            if let answer = answerAt[spot] {
                found.append((index, answer.earlier, answer.meters))
                continue
            }
            let home = row(point.latitude)
            var best: (earlier: Int, meters: Double)?
            for near in max(0, home - 1)...min(rows - 1, home + 1) {
                let count = columns(near)
                let center = column(point.longitude, in: near)
                let candidates = count <= 3 ? Array(0..<count) : [(center + count - 1) % count, center, (center + 1) % count]
                for candidate in candidates {
                    // Each cell's points are in index order: the first close one is the earliest there.
                    for earlier in cells[Cell(row: near, column: candidate)] ?? [] {
                        if let best, earlier > best.earlier { break }
                        let distance = Geodesic.distance(points[earlier], point)
                        if distance <= meters {
                            best = (earlier, distance)
                            break
                        }
                    }
                }
            }
            if let best { found.append((index, best.earlier, best.meters)) }
            answerAt[spot] = best ?? (index, 0)
            cells[Cell(row: home, column: column(point.longitude, in: home)), default: []].append(index)
        }
        return found
    }
}
