import Testing
@testable import HubGeoClusters

@Suite("Web Mercator")
struct WebMercatorTests {
    @Test func knownValues() {
        #expect(WebMercator.x(longitude: -180) == 0)
        #expect(WebMercator.x(longitude: 0) == 0.5)
        #expect(WebMercator.x(longitude: 180) == 1)
        #expect(WebMercator.y(latitude: 0) == 0.5)
        #expect(abs(WebMercator.y(latitude: 45) - 0.35972503691520497) < 1e-12)
        #expect(abs(WebMercator.y(latitude: 85.0511287798066)) < 1e-12)
        #expect(abs(WebMercator.y(latitude: -85.0511287798066) - 1) < 1e-12)
        #expect(WebMercator.y(latitude: 90) == 0 && WebMercator.y(latitude: 86) == 0)
        #expect(WebMercator.y(latitude: -90) == 1 && WebMercator.y(latitude: -86) == 1)
    }

    @Test func theInverseGoesBack() {
        for latitude in stride(from: -85.0, through: 85.0, by: 0.7) {
            #expect(abs(WebMercator.latitude(y: WebMercator.y(latitude: latitude)) - latitude) < 1e-9)
        }
        for longitude in stride(from: -180.0, through: 180.0, by: 0.9) {
            #expect(abs(WebMercator.longitude(x: WebMercator.x(longitude: longitude)) - longitude) < 1e-12)
        }
    }
}
