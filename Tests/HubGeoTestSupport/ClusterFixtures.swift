import Foundation
import HubGeoDatabase
import HubGeoModel

/// Organizations spread as settlements are (and as Benchmarks/generate.py spreads them): most in
/// towns of 1-15 km around random centres, a quarter scattered over the sphere, and 5% at exactly
/// the coordinates of an earlier one (clubs meeting in the same building).
package enum ClusterFixtures {
    package static func organizations(count: Int, seed: UInt64) -> [Organization] {
        var random = SplitMix64(seed: seed)
        func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low..<high, using: &random) }
        let degrees = 180 / Double.pi
        let centres = (0..<max(10, count / 50)).map { _ in
            (asin(uniform(-0.8, 0.95)) * degrees, uniform(-180, 180), uniform(1, 15))
        }
        var points: [GeoPoint] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let kind = uniform(0, 1)
            if kind < 0.05, let earlier = points.randomElement(using: &random) {
                points.append(earlier)
                continue
            }
            var latitude: Double, longitude: Double
            if kind < 0.75 {
                let (centreLatitude, centreLongitude, spread) = centres.randomElement(using: &random)!
                latitude = centreLatitude + uniform(-1.5, 1.5) * spread / 111.2
                longitude = centreLongitude + uniform(-1.5, 1.5) * spread / (111.2 * max(0.05, cos(centreLatitude / degrees)))
                latitude = max(-90, min(90, latitude))
                longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
            } else {
                latitude = asin(uniform(-1, 1)) * degrees
                longitude = uniform(-180, 180)
            }
            points.append(GeoPoint(latitude: (latitude * 1e6).rounded() / 1e6, longitude: (longitude * 1e6).rounded() / 1e6))
        }
        return points.enumerated().map { index, point in
            Organization(type: index % 10 == 0 ? .museum : .club,
                         identity: OrganizationIdentity(town: "Town \(index / 7)", fullName: "Cluster club \(index)"),
                         nickName: "cc\(index)", coordinates: point, website: "https://example.org/\(index)/",
                         level1Source: "generated")
        }
    }

    /// A database at `path` holding `organizations`, imported as `hubgeo import` imports (so with
    /// its stored cluster index).
    @discardableResult
    package static func importedStore(at path: String, _ organizations: [Organization]) throws -> OrganizationStore {
        let store = try OrganizationStore(path: path)
        try store.importOrganizations(source: "generated") { add in
            for organization in organizations { try add(organization) }
        }
        return store
    }
}
