import Foundation
@testable import HubGeoModel
import HubGeoTestSupport
import Testing

/// Checks the test-only geodesic reference against published values before the
/// search-box tests rely on it.
@Suite struct GeodesicReferenceTests {
    /// One published geodesic: start, azimuth there, end, azimuth there, length.
    struct PublishedLine: Sendable, CustomTestStringConvertible {
        let lat1, lon1, azi1, lat2, lon2, azi2, s12: Double
        var testDescription: String { "(\(lat1), \(lon1)) → (\(lat2), \(lon2))" }
    }

    /// The first columns of `testcases` in GeographicLib's C test suite
    /// (tests/geodtest.c, geographiclib-c, © Charles Karney, MIT licence),
    /// computed with GeographicLib at high precision.
    static let published: [PublishedLine] = [
        .init(lat1: 35.60777, lon1: -139.44815, azi1: 111.098748429560326, lat2: -11.17491, lon2: -69.95921, azi2: 129.289270889708762, s12: 8935244.5604818305),
        .init(lat1: 55.52454, lon1: 106.05087, azi1: 22.020059880982801, lat2: 77.03196, lon2: 197.18234, azi2: 109.112041110671519, s12: 4105086.1713924406),
        .init(lat1: -21.97856, lon1: 142.59065, azi1: -32.44456876433189, lat2: 41.84138, lon2: 98.56635, azi2: -41.84359951440466, s12: 8394328.894657671),
        .init(lat1: -66.99028, lon1: 112.2363, azi1: 173.73491240878403, lat2: -12.70631, lon2: 285.90344, azi2: 2.512956620913668, s12: 11150344.2312080241),
        .init(lat1: -17.42761, lon1: 173.34268, azi1: -159.033557661192928, lat2: -15.84784, lon2: 5.93557, azi2: -20.787484651536988, s12: 16076603.1631180673),
        .init(lat1: 32.84994, lon1: 48.28919, azi1: 150.492927788121982, lat2: -56.28556, lon2: 202.29132, azi2: 48.113449399816759, s12: 16727068.9438164461),
        .init(lat1: 6.96833, lon1: 52.74123, azi1: 92.581585386317712, lat2: -7.39675, lon2: 206.17291, azi2: 90.721692165923907, s12: 17102477.2496958388),
        .init(lat1: -50.56724, lon1: -16.30485, azi1: -105.439679907590164, lat2: -33.56571, lon2: -94.97412, azi2: -47.348547835650331, s12: 6455670.5118668696),
        .init(lat1: -58.93002, lon1: -8.90775, azi1: 140.965397902500679, lat2: -8.91104, lon2: 133.13503, azi2: 19.255429433416599, s12: 11756066.0219864627),
        .init(lat1: -68.82867, lon1: -74.28391, azi1: 93.774347763114881, lat2: -50.63005, lon2: -8.36685, azi2: 34.65564085411343, s12: 3956936.926063544),
        .init(lat1: -10.62672, lon1: -32.0898, azi1: -86.426713286747751, lat2: 5.883, lon2: -134.31681, azi2: -80.473780971034875, s12: 11470869.3864563009),
        .init(lat1: -21.76221, lon1: 166.90563, azi1: 29.319421206936428, lat2: 48.72884, lon2: 213.97627, azi2: 43.508671946410168, s12: 9098627.3986554915),
        .init(lat1: -19.79938, lon1: -174.47484, azi1: 71.167275780171533, lat2: -11.99349, lon2: -154.35109, azi2: 65.589099775199228, s12: 2319004.8601169389),
        .init(lat1: -11.95887, lon1: -116.94513, azi1: 92.712619830452549, lat2: 4.57352, lon2: 7.16501, azi2: 78.64960934409585, s12: 13834722.5801401374),
        .init(lat1: -87.85331, lon1: 85.66836, azi1: -65.120313040242748, lat2: 66.48646, lon2: 16.09921, azi2: -4.888658719272296, s12: 17286615.3147144645),
        .init(lat1: 1.74708, lon1: 128.32011, azi1: -101.584843631173858, lat2: -11.16617, lon2: 11.87109, azi2: -86.325793296437476, s12: 12942901.1241347408),
        .init(lat1: -25.72959, lon1: -144.90758, azi1: -153.647468693117198, lat2: -57.70581, lon2: -269.17879, azi2: -48.343983158876487, s12: 9413446.7452453107),
        .init(lat1: -41.22777, lon1: 122.32875, azi1: 14.285113402275739, lat2: -7.57291, lon2: 130.37946, azi2: 10.805303085187369, s12: 3812686.035106021),
        .init(lat1: 11.01307, lon1: 138.25278, azi1: 79.43682622782374, lat2: 6.62726, lon2: 247.05981, azi2: 103.708090215522657, s12: 11911190.819018408),
        .init(lat1: -29.47124, lon1: 95.14681, azi1: -163.779130441688382, lat2: -27.46601, lon2: -69.15955, azi2: -15.909335945554969, s12: 13487015.8381145492),
    ]

    /// The difference between two angles in degrees, in [-180, 180].
    static func angleDifference(_ x: Double, _ y: Double) -> Double {
        remainder(x - y, 360)
    }

    @Test(arguments: published)
    func inverseMatchesPublishedValues(_ line: PublishedLine) {
        let result = GeodesicReference.inverse(
            GeoPoint(latitude: line.lat1, longitude: line.lon1),
            GeoPoint(latitude: line.lat2, longitude: remainder(line.lon2, 360)))
        #expect(abs(result.distance - line.s12) < 1e-6)
        #expect(abs(Self.angleDifference(result.azimuth1, line.azi1)) < 1e-9)
        #expect(abs(Self.angleDifference(result.azimuth2, line.azi2)) < 1e-9)
    }

    @Test(arguments: published)
    func directMatchesPublishedValues(_ line: PublishedLine) {
        let result = GeodesicReference.direct(
            from: GeoPoint(latitude: line.lat1, longitude: line.lon1),
            azimuth: line.azi1, distance: line.s12)
        #expect(abs(result.point.latitude - line.lat2) < 1e-11)
        #expect(abs(Self.angleDifference(result.point.longitude, line.lon2)) < 1e-11)
        #expect(abs(Self.angleDifference(result.azimuth, line.azi2)) < 1e-9)
    }

    /// Wellington to Salamanca, nearly antipodal (GeographicLib documentation:
    /// azi1 161.06766998615873, s12 19959679.26735382 m).
    @Test func nearlyAntipodalDocumentedExample() {
        let result = GeodesicReference.inverse(
            GeoPoint(latitude: -41.32, longitude: 174.81),
            GeoPoint(latitude: 40.96, longitude: -5.50))
        #expect(abs(result.distance - 19_959_679.267_353) < 1e-6)
        #expect(abs(result.azimuth1 - 161.067_669_986_16) < 1e-9)
    }

    /// Nearly antipodal cases from GeographicLib's regression tests (GeodSolve6–11),
    /// where Vincenty's method fails to converge.
    @Test(arguments: [
        (88.202499451857, 0.0, -88.202499451857, 179.981022032992859592, 20003898.214),
        (89.262080389218, 0.0, -89.262080389218, 179.992207982775375662, 20003925.854),
        (89.333123580033, 0.0, -89.333123580032997687, 179.99295812360148422, 20003926.881),
        (56.320923501171, 0.0, -56.320923501171, 179.664747671772880215, 19993558.287),
        (52.784459512564, 0.0, -52.784459512563990912, 179.634407464943777557, 19991596.095),
        (48.522876735459, 0.0, -48.52287673545898293, 179.599720456223079643, 19989144.774),
    ])
    func nearlyAntipodalRegressionCases(
        lat1: Double, lon1: Double, lat2: Double, lon2: Double, distance: Double
    ) {
        let result = GeodesicReference.distance(
            GeoPoint(latitude: lat1, longitude: lon1), GeoPoint(latitude: lat2, longitude: lon2))
        #expect(abs(result - distance) < 0.5e-3)
    }

    /// JFK to Paris CDG (GeodSolve0 and GeodSolve1).
    @Test func newYorkToParis() {
        let inverse = GeodesicReference.inverse(
            GeoPoint(latitude: 40.6, longitude: -73.8), GeoPoint(latitude: 49.01666667, longitude: 2.55))
        #expect(abs(inverse.distance - 5_853_226) < 0.5)
        #expect(abs(inverse.azimuth1 - 53.47022) < 0.5e-5)
        #expect(abs(inverse.azimuth2 - 111.59367) < 0.5e-5)

        let direct = GeodesicReference.direct(
            from: GeoPoint(latitude: 40.63972222, longitude: -73.77888889), azimuth: 53.5, distance: 5850e3)
        #expect(abs(direct.point.latitude - 49.01467) < 0.5e-5)
        #expect(abs(direct.point.longitude - 2.56106) < 0.5e-5)
        #expect(abs(direct.azimuth - 111.62947) < 0.5e-5)
    }

    @Test func oneDegreeAlongTheEquator() {
        let distance = GeodesicReference.distance(
            GeoPoint(latitude: 0, longitude: 10), GeoPoint(latitude: 0, longitude: 11))
        #expect(abs(distance - 111_319.490_793) < 1e-6)
    }

    /// The quarter meridian of WGS84 is 10,001,965.729313 m.
    @Test func equatorToPoleAlongAMeridian() {
        let distance = GeodesicReference.distance(
            GeoPoint(latitude: 0, longitude: 25), GeoPoint(latitude: 90, longitude: 25))
        #expect(abs(distance - 10_001_965.729_313) < 1e-6)
        let pole = GeodesicReference.direct(
            from: GeoPoint(latitude: 0, longitude: 25), azimuth: 0, distance: 10_001_965.729_313)
        #expect(abs(pole.point.latitude - 90) < 1e-9)
    }

    /// Antipodes on the equator are joined over a pole, not along the equator.
    @Test func equatorialAntipodes() {
        let result = GeodesicReference.inverse(
            GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 180))
        #expect(abs(result.distance - 2 * 10_001_965.729_313) < 2e-6)
        #expect(abs(abs(result.azimuth1) - 90) > 89.999)  // 0° or 180°
    }

    @Test func coincidentPointsAreZeroApart() {
        let point = GeoPoint(latitude: 51.4, longitude: 5.5)
        #expect(GeodesicReference.distance(point, point) == 0)
    }

    /// inverse(direct(p, s, α)) gives back s and α for random lines shorter than
    /// about half the Earth (so the geodesic is still the shortest one).
    @Test func directAndInverseAgree() {
        var random = SplitMix64(seed: 0x6765_6F64_6573_6963)
        for _ in 0..<300 {
            let start = GeoPoint(
                latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                longitude: Double.random(in: -180...180, using: &random))
            let azimuth = Double.random(in: -180..<180, using: &random)
            let distance = Double.random(in: 0...19_500_000, using: &random)
            let end = GeodesicReference.direct(from: start, azimuth: azimuth, distance: distance)
            let back = GeodesicReference.inverse(start, end.point)
            #expect(abs(back.distance - distance) < 1e-6, "\(start) \(azimuth) \(distance)")
            #expect(abs(Self.angleDifference(back.azimuth1, azimuth)) < 1e-7, "\(start) \(azimuth) \(distance)")
        }
    }
}
