import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// The library's geodesic distance (Karney's series) against the independent test reference
/// (quadrature and bisection) and GeographicLib's published values.
@Suite struct GeodesicTests {
    /// Published lengths (GeographicLib's test set) to the nanometre.
    @Test(arguments: GeodesicReferenceTests.published)
    func publishedValues(_ line: GeodesicReferenceTests.PublishedLine) {
        let distance = Geodesic.distance(GeoPoint(latitude: line.lat1, longitude: line.lon1),
                                         GeoPoint(latitude: line.lat2, longitude: remainder(line.lon2, 360)))
        #expect(abs(distance - line.s12) < 1e-8, "\(distance) vs \(line.s12)")
    }

    /// Random pairs worldwide, near the poles, across the antimeridian, short, and nearly
    /// antipodal: agreement with the reference to 50 nanometres (a few units in the last place of
    /// distances up to 20,000 km; the reference integrates numerically).
    @Test func agreesWithTheReferenceEverywhere() {
        var random = SplitMix64(seed: 2013)
        var worst = 0.0
        for index in 0..<4_000 {
            func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
            let a = GeoPoint(latitude: asin(uniform(-1...1)) * 180 / .pi, longitude: uniform(-180...180))
            let b: GeoPoint
            switch index % 6 {
            case 0:  // nearly antipodal
                b = GeoPoint(latitude: -a.latitude + uniform(-0.5...0.5),
                             longitude: remainder(a.longitude + 180 + uniform(-0.7...0.7), 360))
            case 1:  // short, within a few kilometres
                b = GeoPoint(latitude: min(90, max(-90, a.latitude + uniform(-0.03...0.03))),
                             longitude: remainder(a.longitude + uniform(-0.05...0.05), 360))
            case 2:  // near a pole
                b = GeoPoint(latitude: (a.latitude < 0 ? -1 : 1) * uniform(88...90), longitude: uniform(-180...180))
            case 3:  // across the antimeridian
                b = GeoPoint(latitude: uniform(-60...60), longitude: a.longitude < 0 ? uniform(170...180) : uniform(-180 ... -170))
            default:
                b = GeoPoint(latitude: asin(uniform(-1...1)) * 180 / .pi, longitude: uniform(-180...180))
            }
            let reference = GeodesicReference.distance(a, b)
            let distance = Geodesic.distance(a, b)
            worst = max(worst, abs(distance - reference))
            #expect(abs(distance - reference) < 50e-9, "\(a) → \(b): \(distance) vs reference \(reference)")
            #expect(Geodesic.distance(b, a) == distance || abs(Geodesic.distance(b, a) - distance) < 1e-9)
        }
        print("Geodesic: largest difference from the reference over 4,000 pairs: \(worst * 1e9) nm")
    }

    @Test func specialCases() {
        // Coincident points, the equator, meridians and poles.
        #expect(Geodesic.distance(GeoPoint(latitude: 51.4, longitude: 5.4), GeoPoint(latitude: 51.4, longitude: 5.4)) == 0)
        #expect(abs(Geodesic.distance(GeoPoint(latitude: 0, longitude: 25), GeoPoint(latitude: 90, longitude: 25)) - 10_001_965.729_313) < 1e-6)
        #expect(abs(Geodesic.distance(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1))
                    - GeodesicReference.distance(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1))) < 1e-8)
        #expect(abs(Geodesic.distance(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 180)) - 2 * 10_001_965.729_313) < 2e-6)
        #expect(abs(Geodesic.distance(GeoPoint(latitude: 90, longitude: 0), GeoPoint(latitude: -90, longitude: 77)) - 2 * 10_001_965.729_313) < 2e-6)
        #expect(abs(Geodesic.distance(GeoPoint(latitude: -41.32, longitude: 174.81), GeoPoint(latitude: 40.96, longitude: -5.50))
                    - 19_959_679.267_353) < 1e-6)
        #expect(Geodesic.distance(GeoPoint(latitude: 89.9, longitude: -180), GeoPoint(latitude: 89.9, longitude: 180)) == 0)
        for (lat1, lon1, lat2, lon2, expected) in [
            (88.202499451857, 0.0, -88.202499451857, 179.981022032992859592, 20003898.214),
            (89.333123580033, 0.0, -89.333123580032997687, 179.99295812360148422, 20003926.881),
            (56.320923501171, 0.0, -56.320923501171, 179.664747671772880215, 19993558.287),
            (48.522876735459, 0.0, -48.52287673545898293, 179.599720456223079643, 19989144.774),
        ] {
            let distance = Geodesic.distance(GeoPoint(latitude: lat1, longitude: lon1), GeoPoint(latitude: lat2, longitude: lon2))
            #expect(abs(distance - expected) < 0.5e-3, "\(distance) vs \(expected)")
        }
    }
}
