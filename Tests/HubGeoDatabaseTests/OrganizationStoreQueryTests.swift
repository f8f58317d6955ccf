import Foundation
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

@Suite("Spatial queries against a real SpatiaLite file")
struct OrganizationStoreQueryTests {
    /// Brute force: every organization with its reference (Karney) distance.
    func bruteForce(_ organizations: [Organization], from center: GeoPoint) -> [(Organization, Double)] {
        organizations.map { ($0, GeodesicReference.distance(center, $0.coordinates)) }.sorted { $0.1 < $1.1 }
    }

    /// Great-circle distance on a sphere of the mean Earth radius.
    static func sphericalDistance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let (φ1, φ2) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    @Test func nearEqualsABruteForceScanWorldwide() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organizations = StoreFixtures.randomOrganizations(count: 1_500, seed: 7)
        let store = try StoreFixtures.store(in: directory, organizations)
        var random = SplitMix64(seed: 11)
        var compared = 0
        for query in 0..<60 {
            // Centres near the poles, near the antimeridian and anywhere; radii 10 km to 3000 km.
            let center = query % 3 == 0 ? GeoPoint(latitude: (query % 2 == 0 ? 1 : -1) * (87 + Double.random(in: 0..<3, using: &random)),
                                                   longitude: Double.random(in: -180...180, using: &random))
                : query % 3 == 1 ? GeoPoint(latitude: Double.random(in: -60...60, using: &random),
                                            longitude: (query % 2 == 0 ? 1 : -1) * Double.random(in: 179...180, using: &random))
                : GeoPoint(latitude: Double.random(in: -80...80, using: &random), longitude: Double.random(in: -180...180, using: &random))
            let radius = exp(Double.random(in: log(10_000)...log(3_000_000), using: &random))
            let found = try store.near(center, radiusMeters: radius)
            // Brute force over every organization. A spherical distance decides the clear cases
            // (it is within 0.6 % of the ellipsoidal one); the exact reference decides the rest.
            var mustBeIn: Set<OrganizationIdentity> = []
            var mayBeIn: Set<OrganizationIdentity> = []
            for organization in organizations {
                var distance = Self.sphericalDistance(center, organization.coordinates)
                if abs(distance - radius) < radius * 0.008 + 10 {
                    distance = GeodesicReference.distance(center, organization.coordinates)
                }
                // Points within 1 m of the circle may fall either way; everything else must agree.
                if distance < radius - 1 { mustBeIn.insert(organization.identity) }
                if distance <= radius + 1 { mayBeIn.insert(organization.identity) }
            }
            let foundIDs = Set(found.map(\.organization.identity))
            #expect(mustBeIn.isSubset(of: foundIDs), "query \(query): \(center) r=\(radius)")
            #expect(foundIDs.isSubset(of: mayBeIn), "query \(query): \(center) r=\(radius)")
            // Nearest first, with the exact ellipsoidal distance (mm agreement with Karney).
            for match in found.prefix(15) {
                let reference = GeodesicReference.distance(center, match.organization.coordinates)
                #expect(abs(match.distanceMeters! - reference) < 0.001 + reference * 1e-9)
            }
            #expect(found.map(\.distanceMeters!) == found.map(\.distanceMeters!).sorted())
            compared += found.count
        }
        #expect(compared > 500, "the queries must actually find organizations")
    }

    @Test func nearFindsPointsAcrossTheAntimeridian() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [
            StoreFixtures.organization("West", 0, -179.9), StoreFixtures.organization("East", 0, 179.95),
            StoreFixtures.organization("Far", 0, 179.0),
        ])
        let found = try store.near(GeoPoint(latitude: 0, longitude: 179.9), radiusMeters: 50_000)
        #expect(found.map(\.organization.fullName) == ["East", "West"])
        #expect(abs(found[1].distanceMeters! - 22_263.9) < 1, "0.2 degrees of longitude at the equator")
    }

    @Test func nearAroundAPoleCoversAllLongitudes() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [
            StoreFixtures.organization("Across", 89.8, 180), StoreFixtures.organization("Side", 89.9, -90),
            StoreFixtures.organization("Here", 89.9, 0), StoreFixtures.organization("South", 89.0, 0),
        ])
        let found = try store.near(GeoPoint(latitude: 89.9, longitude: 0), radiusMeters: 50_000)
        #expect(Set(found.map(\.organization.fullName)) == ["Across", "Side", "Here"])
        #expect(found.first?.organization.fullName == "Here")
    }

    @Test func nearestReturnsTheNNearestWhateverTheDistance() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organizations = StoreFixtures.randomOrganizations(count: 400, seed: 3)
        let store = try StoreFixtures.store(in: directory, organizations)
        for center in [GeoPoint(latitude: 51.4, longitude: 5.4), GeoPoint(latitude: -89.5, longitude: 10), GeoPoint(latitude: 0, longitude: -179.99)] {
            let found = try store.nearest(center, count: 7)
            let expected = bruteForce(organizations, from: center).prefix(7).map(\.0.identity)
            #expect(found.map(\.organization.identity) == Array(expected))
        }
        #expect(try store.nearest(GeoPoint(latitude: 0, longitude: 0), count: 1_000).count == 400)
        let museums = try store.nearest(GeoPoint(latitude: 0, longitude: 0), count: 5, filter: .init(type: .museum, offset: 2))
        let expectedMuseums = bruteForce(organizations.filter { $0.type == .museum }, from: GeoPoint(latitude: 0, longitude: 0))
        #expect(museums.map(\.organization.identity) == expectedMuseums.dropFirst(2).prefix(5).map(\.0.identity))
    }

    @Test func bboxIncludingOneThatCrossesTheAntimeridian() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [
            StoreFixtures.organization("East", 65, 175), StoreFixtures.organization("West", 65, -175),
            StoreFixtures.organization("Greenwich", 65, 0), StoreFixtures.organization("Edge", 70, 180),
            StoreFixtures.organization("North", 71, 175),
        ])
        let crossing = try store.within(west: 170, south: 60, east: -170, north: 70)
        #expect(Set(crossing.map(\.organization.fullName)) == ["East", "West", "Edge"])
        let normal = try store.within(west: -10, south: 60, east: 10, north: 70)
        #expect(normal.map(\.organization.fullName) == ["Greenwich"])
        #expect(throws: BoundingBoxError.self) { try store.within(west: 0, south: 70, east: 10, north: 60) }
    }

    @Test func searchIgnoresCaseAndAccents() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try StoreFixtures.store(in: directory, [
            StoreFixtures.organization("Musée de l'Élysée", 46.5, 6.6, type: .museum, town: "Lausanne"),
            StoreFixtures.organization("Fotogroep Waalre", 51.39, 5.46, town: "Waalre"),
        ])
        #expect(try store.search("MUSEE DE L'ELYSEE").map(\.organization.town) == ["Lausanne"])
        #expect(try store.search("lausanne").count == 1)
        #expect(try store.search("waal", filter: .init(type: .club)).count == 1)
        #expect(try store.search("waal", filter: .init(type: .museum)).isEmpty)
        #expect(try store.organization(named: "fotogroep waalre").town == "Waalre")
        #expect(throws: OrganizationLookupError.noMatch("Nowhere")) { try store.organization(named: "Nowhere") }
    }

    @Test func limitAndOffsetPageThroughResults() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organizations = (0..<10).map { StoreFixtures.organization("Org \($0)", 51 + Double($0) * 0.01, 5) }
        let store = try StoreFixtures.store(in: directory, organizations)
        let all = try store.near(GeoPoint(latitude: 51, longitude: 5), radiusMeters: 20_000)
        let page = try store.near(GeoPoint(latitude: 51, longitude: 5), radiusMeters: 20_000, filter: .init(limit: 3, offset: 4))
        #expect(all.count == 10)
        #expect(page.map(\.organization.fullName) == all[4..<7].map(\.organization.fullName))
    }
}
