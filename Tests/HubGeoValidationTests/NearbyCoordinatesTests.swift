import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// The close-coordinates check finds, for each point, the first earlier point within the
/// distance: the same answer as comparing every pair, in time linear in the points.
@Suite("validate: close coordinates")
struct NearbyCoordinatesTests {
    /// Every pair, compared: for each point the first earlier one within `meters`.
    static func bruteForce(_ points: [GeoPoint], within meters: Double) -> [(index: Int, earlier: Int)] {
        var found: [(index: Int, earlier: Int)] = []
        for index in points.indices {
            if let earlier = (0..<index).first(where: { Geodesic.distance(points[$0], points[index]) <= meters }) {
                found.append((index, earlier))
            }
        }
        return found
    }

    @Test("the same points as every pair compared, on clumps, one parallel, the antimeridian and the poles", arguments: 0..<6)
    func sameAsEveryPair(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 7)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var points: [GeoPoint] = []
        // Anchors: ordinary places, the antimeridian, both poles, one parallel.
        let anchors = [GeoPoint(latitude: 51.4, longitude: 5.4), GeoPoint(latitude: -33.87, longitude: 179.99999),
                       GeoPoint(latitude: -33.87, longitude: -179.99999), GeoPoint(latitude: 89.99999, longitude: 10),
                       GeoPoint(latitude: -90, longitude: 0), GeoPoint(latitude: 0.0, longitude: 0.0)]
        for _ in 0..<1_500 {
            let anchor = anchors[Int(random.next() % UInt64(anchors.count))]
            // Within about 12 m of the anchor, some exactly on it.
            let dLat = (uniform() - 0.5) * 0.0002, dLon = (uniform() - 0.5) * 0.0002 / max(0.01, cos(anchor.latitude * .pi / 180))
            let exact = random.next() % 5 == 0
            var longitude = anchor.longitude + (exact ? 0 : dLon)
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            points.append(GeoPoint(latitude: exact ? anchor.latitude : min(90, max(-90, anchor.latitude + dLat)), longitude: longitude))
        }
        // One parallel: points 20 m apart along latitude 45.
        for k in 0..<300 { points.append(GeoPoint(latitude: 45, longitude: 10 + Double(k) * 0.00025)) }
        let fast = NearbyCoordinates.firstCloseEarlier(points, within: 5)
        let slow = Self.bruteForce(points, within: 5)
        #expect(fast.map(\.index) == slow.map(\.index))
        #expect(fast.map(\.earlier) == slow.map(\.earlier))
        #expect(fast.allSatisfy { $0.meters <= 5 })
    }

    // A complexity guard (``ComplexityGuard``): linear work takes about 8 times the CPU time for 8
    // times the points, quadratic work 64 times; 24 is allowed.
    @Test("linear whatever the layout: 8× the points on one parallel or at one spot take less than 24× the time (quadratic: 64×)")
    func linear() {
        for shape in ["parallel", "spot"] {
            func points(_ n: Int) -> [GeoPoint] {
                (0..<n).map { shape == "parallel" ? GeoPoint(latitude: 52, longitude: Double($0) * 0.001) : GeoPoint(latitude: 52, longitude: 5) }
            }
            let smallPoints = points(5_000), largePoints = points(40_000)
            let small = ComplexityGuard.fastestCPUSeconds(runs: 3) { _ = NearbyCoordinates.firstCloseEarlier(smallPoints, within: 5) }
            let large = ComplexityGuard.fastestCPUSeconds(runs: 3) { _ = NearbyCoordinates.firstCloseEarlier(largePoints, within: 5) }
            #expect(large < 24 * small, "\(shape): \(small) s for 5,000, \(large) s for 40,000")
        }
    }
}
