@testable import HubGeoClusters

/// A small deterministic generator (SplitMix64), so that every run tests the same data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum TestData {
    /// Organizations spread as clubs are: most in towns (a few kilometres across) around random
    /// centres, a third of them in Europe, some scattered over the world, some sharing the
    /// coordinates of an earlier one (one building), coordinates rounded to 6 decimals as in the
    /// data. Ids are the input positions.
    static func clubs(count: Int, seed: UInt64) -> [ClusterIndex.Organization] {
        var random = SplitMix64(seed: seed)
        let towns = (0..<max(3, count / 40)).map { index -> (latitude: Double, longitude: Double, kilometres: Double) in
            if index % 3 == 0 {
                return (Double.random(in: 36...70, using: &random), Double.random(in: -10...40, using: &random),
                        Double.random(in: 0.5...12, using: &random))
            }
            return (Double.random(in: -55...70, using: &random), Double.random(in: -180...180, using: &random),
                    Double.random(in: 0.5...12, using: &random))
        }
        var organizations: [ClusterIndex.Organization] = []
        for index in 0..<count {
            let kind = Double.random(in: 0..<1, using: &random)
            var latitude: Double, longitude: Double
            if kind < 0.05, let earlier = organizations.randomElement(using: &random) {
                (latitude, longitude) = (earlier.latitude, earlier.longitude)
            } else if kind < 0.8 {
                let town = towns.randomElement(using: &random)!
                latitude = town.latitude + gaussian(&random) * town.kilometres / 111.2
                longitude = town.longitude + gaussian(&random) * town.kilometres / (111.2 * max(0.05, cos(town.latitude * .pi / 180)))
                latitude = min(90, max(-90, latitude))
                longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
            } else {
                latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
                longitude = Double.random(in: -180...180, using: &random)
            }
            organizations.append(.init(
                id: Int64(index), latitude: (latitude * 1e6).rounded() / 1e6, longitude: (longitude * 1e6).rounded() / 1e6))
        }
        return organizations
    }

    /// A few organizations in clumps within clumps: each one a random distance (from centimetres
    /// to a thousand kilometres, log-uniform) from an earlier one, some exactly on one, around a
    /// random place (sometimes next to the antimeridian or a pole). Items there merge at every
    /// zoom, newly made clusters land next to old lone items, and seeds meet in every order.
    static func clumps(count: Int, _ random: inout SplitMix64) -> [ClusterIndex.Organization] {
        var latitude = Double.random(in: -70...70, using: &random)
        var longitude = Double.random(in: -180...180, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0: longitude = 179.99
        case 1: latitude = 85.04
        default: break
        }
        var organizations = [ClusterIndex.Organization(id: 0, latitude: latitude, longitude: longitude)]
        while organizations.count < count {
            let from = organizations.randomElement(using: &random)!
            if Int.random(in: 0..<10, using: &random) == 0 {
                organizations.append(.init(id: Int64(organizations.count), latitude: from.latitude, longitude: from.longitude))
                continue
            }
            let kilometres = pow(10, Double.random(in: -4...3, using: &random))
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let latitude = min(90, max(-90, from.latitude + kilometres * sin(angle) / 111.2))
            var longitude = from.longitude + kilometres * cos(angle) / (111.2 * max(0.05, cos(from.latitude * .pi / 180)))
            longitude = min(180, max(-180, longitude))
            organizations.append(.init(id: Int64(organizations.count), latitude: latitude, longitude: longitude))
        }
        return organizations
    }

    static func gaussian(_ random: inout SplitMix64) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// A random view: a box of random size (a street to more than the world) at a random place,
    /// sometimes across the antimeridian, at a random zoom up to a few beyond `maxZoom`.
    /// Half of them are around one of `organizations`.
    static func view(
        _ random: inout SplitMix64, maxZoom: Int, around organizations: [ClusterIndex.Organization]
    ) -> (west: Double, south: Double, east: Double, north: Double, zoom: Int) {
        let width = pow(10, Double.random(in: -3...2.7, using: &random))
        let height = min(180, pow(10, Double.random(in: -3...2.3, using: &random)))
        var west = Double.random(in: -200...200, using: &random)
        var south = Double.random(in: -95...(95 - height), using: &random)
        if Bool.random(using: &random), let centre = organizations.randomElement(using: &random) {
            west = centre.longitude - width * Double.random(in: 0...1, using: &random)
            south = centre.latitude - height * Double.random(in: 0...1, using: &random)
        }
        return (west, south, west + width, south + height, Int.random(in: -1...(maxZoom + 2), using: &random))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
