import Foundation
import HubGeo

/// Builds organizations and stores for tests.
package enum StoreFixtures {
    package static func organization(_ name: String, _ latitude: Double, _ longitude: Double,
                             type: OrganizationType = .club, town: String = "Town") -> Organization {
        Organization(type: type, identity: OrganizationIdentity(town: town, fullName: name), nickName: name,
                     coordinates: GeoPoint(latitude: latitude, longitude: longitude), level1Source: "test")
    }

    package static func data(_ organizations: [Organization], source: String = "test") -> HubData {
        HubData(organizations: organizations, diagnostics: [], level1Files: [source], level2Files: [],
                orphanLevel2Files: [], source: source)
    }

    /// A store in `directory` holding `organizations`.
    package static func store(in directory: TemporaryDirectory, _ organizations: [Organization]) throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path("hub.sqlite"))
        try store.importData(data(organizations))
        return store
    }

    /// Random points worldwide, with extra ones near the poles and the antimeridian.
    package static func randomOrganizations(count: Int, seed: UInt64) -> [Organization] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let latitude: Double
            let longitude: Double
            switch index % 4 {
            case 0:  // near a pole
                latitude = (Double.random(in: 0..<1, using: &random) > 0.5 ? 1.0 : -1.0) * (88 + Double.random(in: 0..<1, using: &random) * 2)
                longitude = Double.random(in: 0..<1, using: &random) * 360 - 180
            case 1:  // near the antimeridian
                latitude = Double.random(in: 0..<1, using: &random) * 120 - 60
                longitude = (Double.random(in: 0..<1, using: &random) > 0.5 ? 1.0 : -1.0) * (179 + Double.random(in: 0..<1, using: &random))
            default:  // anywhere, uniform on the sphere
                latitude = asin(Double.random(in: 0..<1, using: &random) * 2 - 1) * 180 / .pi
                longitude = Double.random(in: 0..<1, using: &random) * 360 - 180
            }
            return organization("Org \(index)", latitude, longitude, type: index % 3 == 0 ? .museum : .club)
        }
    }
}
