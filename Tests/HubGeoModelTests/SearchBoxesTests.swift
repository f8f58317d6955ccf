import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

@Suite struct SearchBoxesTests {
    private static func isCovered(_ point: GeoPoint, by boxes: [LonLatBox]) -> Bool {
        boxes.contains { $0.contains(point) }
    }

    /// A random centre: uniform on the sphere, near a pole, or near the antimeridian.
    private static func randomCenter(_ index: Int, using random: inout SplitMix64) -> GeoPoint {
        let sign: Double = Bool.random(using: &random) ? 1 : -1
        switch index % 4 {
        case 0:
            return GeoPoint(
                latitude: sign * Double.random(in: 89...90, using: &random),
                longitude: Double.random(in: -180...180, using: &random))
        case 1:
            return GeoPoint(
                latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                longitude: sign * Double.random(in: 179.5...180, using: &random))
        default:
            return GeoPoint(
                latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                longitude: Double.random(in: -180...180, using: &random))
        }
    }

    /// Points at (just inside) the radius in random directions always fall in a box.
    @Test func boxesCoverTheGeodesicCircle() {
        var random = SplitMix64(seed: 20_240_611)
        var boxCounts: [Int: Int] = [:]
        for index in 0..<2_000 {
            let center = Self.randomCenter(index, using: &random)
            let radius = 10 * pow(500_000, Double.random(in: 0...1, using: &random))  // 10 m ... 5,000 km
            let boxes = SearchBoxes.covering(center: center, radiusMeters: radius)
            boxCounts[boxes.count, default: 0] += 1
            #expect(Self.isCovered(center, by: boxes))
            for _ in 0..<6 {
                let azimuth = Double.random(in: -180..<180, using: &random)
                for fraction in [0.999, 1.0] {
                    let point = GeodesicReference.direct(
                        from: center, azimuth: azimuth, distance: fraction * radius).point
                    #expect(
                        Self.isCovered(point, by: boxes),
                        "\(point) at \(fraction) × \(radius) m, azimuth \(azimuth), from \(center): \(boxes)")
                }
            }
        }
        // The sample exercised single boxes, split boxes and all-longitude boxes.
        #expect(boxCounts[1, default: 0] > 100)
        #expect(boxCounts[2, default: 0] > 100)
    }

    /// The four compass points and the points of greatest longitude are hardest
    /// to cover; check them at the radius itself for a grid of latitudes.
    @Test func boxesCoverExtremePointsOfTheCircle() {
        for latitude in stride(from: -89.9, through: 89.9, by: 2.9) {
            for radius in [10.0, 1_000, 50_000, 700_000, 5_000_000] {
                let center = GeoPoint(latitude: latitude, longitude: 179.99)
                let boxes = SearchBoxes.covering(center: center, radiusMeters: radius)
                for azimuth in stride(from: -180.0, to: 180, by: 7.5) {
                    let point = GeodesicReference.direct(from: center, azimuth: azimuth, distance: radius).point
                    #expect(Self.isCovered(point, by: boxes), "\(point) from \(center), \(radius) m")
                }
            }
        }
    }

    @Test func circleAcrossTheAntimeridianIsSplit() {
        let boxes = SearchBoxes.covering(center: GeoPoint(latitude: 0, longitude: 179.9), radiusMeters: 50_000)
        #expect(boxes.count == 2)
        #expect(boxes.allSatisfy { $0.minLongitude <= $0.maxLongitude })
        #expect(boxes.contains { $0.maxLongitude == 180 })
        #expect(boxes.contains { $0.minLongitude == -180 })
        #expect(Self.isCovered(GeoPoint(latitude: 0, longitude: -179.9), by: boxes))
        #expect(Self.isCovered(GeoPoint(latitude: 0, longitude: 179.5), by: boxes))
        #expect(!Self.isCovered(GeoPoint(latitude: 0, longitude: -179.0), by: boxes))
        #expect(!Self.isCovered(GeoPoint(latitude: 0, longitude: 179.0), by: boxes))
    }

    @Test func circleAroundTheNorthPoleCoversAllLongitudes() {
        let boxes = SearchBoxes.covering(center: GeoPoint(latitude: 89.7, longitude: 40), radiusMeters: 50_000)
        #expect(boxes.count == 1)
        let box = try! #require(boxes.first)
        #expect(box.minLongitude == -180 && box.maxLongitude == 180)
        #expect(box.maxLatitude == 90)
        #expect(box.minLatitude > 89.2 && box.minLatitude < 89.3)
        #expect(Self.isCovered(GeoPoint(latitude: 89.9, longitude: -140), by: boxes))
    }

    @Test func circleAroundTheSouthPoleCoversAllLongitudes() {
        let boxes = SearchBoxes.covering(center: GeoPoint(latitude: -80, longitude: 0), radiusMeters: 1_200_000)
        #expect(boxes == [boxes[0]])
        #expect(boxes[0].minLatitude == -90)
        #expect(boxes[0].minLongitude == -180 && boxes[0].maxLongitude == 180)
    }

    @Test func circleTouchingThePoleFromLowerLatitudesSpansAllLongitudes() {
        // sin r / cos φ >= 1 exactly when the cap reaches the pole.
        let boxes = SearchBoxes.covering(center: GeoPoint(latitude: 45, longitude: 0), radiusMeters: 5_100_000)
        #expect(boxes.count == 1)
        #expect(boxes[0].maxLatitude == 90 && boxes[0].minLongitude == -180 && boxes[0].maxLongitude == 180)
    }

    /// The longitude half-width is close to the true greatest longitude offset
    /// of the geodesic circle: 20 km around a point at 51.4° N (about 0.9 % wider,
    /// mostly the ratio of the prime-vertical radius there to b²/a).
    @Test func boxesAreNotWastefullyWide() {
        let center = GeoPoint(latitude: 51.4, longitude: 5.5)
        let radius = 20_000.0
        let boxes = SearchBoxes.covering(center: center, radiusMeters: radius)
        #expect(boxes.count == 1)
        let box = boxes[0]
        var greatestOffset = 0.0
        var northmost = -90.0, southmost = 90.0
        for step in 0..<3_600 {
            let point = GeodesicReference.direct(
                from: center, azimuth: Double(step) / 10, distance: radius).point
            greatestOffset = max(greatestOffset, abs(point.longitude - center.longitude))
            northmost = max(northmost, point.latitude)
            southmost = min(southmost, point.latitude)
        }
        let halfWidth = (box.maxLongitude - box.minLongitude) / 2
        #expect(halfWidth >= greatestOffset)
        #expect(halfWidth / greatestOffset - 1 < 0.01)
        #expect(box.maxLatitude >= northmost && box.minLatitude <= southmost)
        #expect((box.maxLatitude - box.minLatitude) / (northmost - southmost) - 1 < 0.01)
    }

    @Test func hugeRadiusGivesTheWholeWorld() {
        for radius in [20_003_932.0, 25_000_000, .infinity] {
            #expect(
                SearchBoxes.covering(center: GeoPoint(latitude: 12, longitude: -70), radiusMeters: radius)
                    == [.wholeWorld])
        }
    }

    @Test func zeroRadiusStillCoversTheCenter() {
        let center = GeoPoint(latitude: -33.9, longitude: 151.2)
        let boxes = SearchBoxes.covering(center: center, radiusMeters: 0)
        #expect(boxes.count == 1)
        #expect(boxes[0].contains(center))
        #expect(boxes[0].maxLatitude - boxes[0].minLatitude < 1e-3)
    }

    @Test func invalidQueriesGiveNoBoxes() {
        let center = GeoPoint(latitude: 10, longitude: 10)
        #expect(SearchBoxes.covering(center: center, radiusMeters: -1).isEmpty)
        #expect(SearchBoxes.covering(center: center, radiusMeters: .nan).isEmpty)
        #expect(SearchBoxes.covering(center: GeoPoint(latitude: 91, longitude: 0), radiusMeters: 1).isEmpty)
        #expect(SearchBoxes.covering(center: GeoPoint(latitude: 0, longitude: .nan), radiusMeters: 1).isEmpty)
    }

    // MARK: - User bounding boxes

    @Test func ordinaryBoundingBoxIsOneBox() throws {
        let boxes = try SearchBoxes.splitting(west: 3, south: 50, east: 7, north: 54)
        #expect(boxes == [try LonLatBox(minLongitude: 3, minLatitude: 50, maxLongitude: 7, maxLatitude: 54)])
    }

    @Test func boundingBoxAcrossTheAntimeridianIsSplit() throws {
        let boxes = try SearchBoxes.splitting(west: 170, south: -50, east: -170, north: -30)
        #expect(boxes == [
            try LonLatBox(minLongitude: 170, minLatitude: -50, maxLongitude: 180, maxLatitude: -30),
            try LonLatBox(minLongitude: -180, minLatitude: -50, maxLongitude: -170, maxLatitude: -30),
        ])
        #expect(Self.isCovered(GeoPoint(latitude: -40, longitude: 178), by: boxes))
        #expect(Self.isCovered(GeoPoint(latitude: -40, longitude: -178), by: boxes))
        #expect(!Self.isCovered(GeoPoint(latitude: -40, longitude: 0), by: boxes))
    }

    @Test func invalidBoundingBoxesAreRejected() {
        #expect(throws: BoundingBoxError.southNorthOfNorth(south: 10, north: 5)) {
            try SearchBoxes.splitting(west: 0, south: 10, east: 1, north: 5)
        }
        #expect(throws: BoundingBoxError.latitudeOutOfRange(91)) {
            try SearchBoxes.splitting(west: 0, south: 0, east: 1, north: 91)
        }
        #expect(throws: BoundingBoxError.longitudeOutOfRange(-190)) {
            try SearchBoxes.splitting(west: -190, south: 0, east: 1, north: 1)
        }
        #expect(throws: BoundingBoxError.notFinite) {
            try SearchBoxes.splitting(west: .nan, south: 0, east: 1, north: 1)
        }
        #expect(throws: BoundingBoxError.crossesAntimeridian(west: 170, east: -170)) {
            try LonLatBox(minLongitude: 170, minLatitude: 0, maxLongitude: -170, maxLatitude: 1)
        }
        let message = BoundingBoxError.southNorthOfNorth(south: 10, north: 5).localizedDescription
        #expect(message == "South edge 10.0 lies north of north edge 5.0.")
    }

    @Test func boxEdgesAreInclusive() throws {
        let box = try LonLatBox(minLongitude: -1, minLatitude: -2, maxLongitude: 1, maxLatitude: 2)
        #expect(box.contains(GeoPoint(latitude: 2, longitude: -1)))
        #expect(box.contains(GeoPoint(latitude: -2, longitude: 1)))
        #expect(!box.contains(GeoPoint(latitude: 2.000001, longitude: 0)))
        #expect(!box.contains(GeoPoint(latitude: 0, longitude: .nan)))
    }

    @Test func geoPointValidityAndCoding() throws {
        #expect(GeoPoint(latitude: 90, longitude: -180).isValid)
        #expect(!GeoPoint(latitude: -90.5, longitude: 0).isValid)
        #expect(!GeoPoint(latitude: 0, longitude: 180.5).isValid)
        #expect(!GeoPoint(latitude: .infinity, longitude: 0).isValid)
        let point = GeoPoint(latitude: 51.4, longitude: 5.47)
        let decoded = try JSONDecoder().decode(GeoPoint.self, from: JSONEncoder().encode(point))
        #expect(decoded == point)
    }
}
