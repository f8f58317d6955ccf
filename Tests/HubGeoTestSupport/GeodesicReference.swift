import Foundation
import HubGeo

/// Test-only, independent geodesics on the WGS84 ellipsoid, accurate to well
/// under a micrometre.
///
/// It follows Karney's formulation (C. F. F. Karney, "Algorithms for geodesics",
/// J. Geodesy 87, 43–55, 2013, eqs. 5–8): a geodesic maps to a great circle on an
/// auxiliary sphere (reduced latitude β, arc length σ, longitude ω), with
///
///     s = b ∫ √(1 + k² sin²σ) dσ,
///     λ = ω − f sin α₀ ∫ (2 − f) / (1 + (1 − f) √(1 + k² sin²σ)) dσ,
///     k² = e′² cos²α₀.
///
/// Rather than Karney's series, the two integrals are evaluated by Gauss–Legendre
/// quadrature (the integrands are smooth and periodic, so 12 nodes per quarter
/// turn reach double precision). `inverse` solves for the starting azimuth by
/// bisection on the monotonic function λ₁₂(α₁) after putting the points in
/// Karney's canonical order (φ₁ ≤ 0, |φ₂| ≤ |φ₁|, 0 ≤ λ₁₂ ≤ π); unlike Vincenty's
/// iteration this converges everywhere, including nearly antipodal points.
/// It uses its own WGS84 constants rather than the library's.
package enum GeodesicReference {
    package static let a = 6_378_137.0
    package static let f = 1 / 298.257_223_563
    package static let b = a * (1 - f)
    /// Second eccentricity squared, e′² = (a² − b²) / b².
    package static let secondEccentricitySquared = f * (2 - f) / ((1 - f) * (1 - f))

    /// The end of a geodesic: where it arrives and its forward azimuth there.
    package struct Destination {
        package let point: GeoPoint
        /// Forward azimuth at the end point, degrees clockwise from north.
        package let azimuth: Double
    }

    /// The shortest geodesic between two points.
    package struct Geodesic {
        /// Length in metres.
        package let distance: Double
        /// Azimuth at the first point, degrees clockwise from north.
        package let azimuth1: Double
        /// Forward azimuth at the second point.
        package let azimuth2: Double
    }

    /// The point at `distance` metres from `start` along the geodesic that
    /// leaves it at `azimuth` degrees (clockwise from north).
    package static func direct(from start: GeoPoint, azimuth: Double, distance: Double) -> Destination {
        let (sbet1, cbet1) = reducedLatitude(start.latitude)
        let (salp1, calp1) = sinCos(degrees: azimuth)
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        let k2 = secondEccentricitySquared * calp0 * calp0
        // (sin σ, cos σ) and (sin ω, cos ω) up to a common positive factor.
        let ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        let sigma1 = atan2(ssig1, csig1)

        // Solve b ∫σ₁^σ₂ √(1 + k² sin²σ) dσ = distance for σ₂ by Newton's method.
        var sigma2 = sigma1 + distance / b
        for _ in 0..<20 {
            let error = b * distanceIntegral(from: sigma1, to: sigma2, k2: k2) - distance
            let step = error / (b * sqrt(1 + k2 * sin(sigma2) * sin(sigma2)))
            sigma2 -= step
            if abs(step) <= 1e-15 { break }
        }
        let ssig2 = sin(sigma2), csig2 = cos(sigma2)
        let sbet2 = calp0 * ssig2
        let cbet2 = hypot(salp0, calp0 * csig2)
        let somg2 = salp0 * ssig2, comg2 = csig2

        // ω₁₂, unrolled so that it keeps counting past ±π.
        let sign: Double = salp0 < 0 ? -1 : 1
        let turns = (sigma2 - sigma1) - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
        let omega12 = sign * (turns + atan2(sign * somg2, comg2) - atan2(sign * somg1, comg1))
        let lambda12 = omega12 - f * salp0 * longitudeIntegral(from: sigma1, to: sigma2, k2: k2)

        let latitude = degrees(atan2(sbet2, (1 - f) * cbet2))
        let longitude = remainder(start.longitude + degrees(lambda12), 360)
        return Destination(
            point: GeoPoint(latitude: latitude, longitude: longitude),
            azimuth: degrees(atan2(salp0, calp0 * csig2)))
    }

    /// The shortest geodesic from `point1` to `point2`.
    package static func inverse(_ point1: GeoPoint, _ point2: GeoPoint) -> Geodesic {
        // Canonical order: 0 <= λ₁₂ <= 180, |φ₁| >= |φ₂|, φ₁ <= 0.
        var lon12 = remainder(point2.longitude - point1.longitude, 360)
        var lonSign: Double = lon12 < 0 ? -1 : 1
        lon12 *= lonSign
        var lat1 = point1.latitude, lat2 = point2.latitude
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            // Going from point 2 to point 1 reverses the sign of λ₁₂ too.
            swap(&lat1, &lat2)
            lonSign = -lonSign
        }
        let latSign: Double = lat1 > 0 ? -1 : 1
        lat1 *= latSign
        lat2 *= latSign

        let (sbet1, cbet1) = reducedLatitude(lat1)
        let (sbet2, cbet2) = reducedLatitude(lat2)
        let lambda12 = radians(lon12)

        var distance: Double
        var alpha1: Double, alpha2: Double
        if sbet1 == 0, sbet2 == 0, lambda12 <= (1 - f) * .pi {
            // Along the equator, which is shortest unless the points are nearly antipodal.
            distance = a * lambda12
            alpha1 = .pi / 2
            alpha2 = .pi / 2
        } else {
            let canonical = CanonicalLine(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2)
            var low = 0.0, high = Double.pi
            while true {
                let middle = 0.5 * (low + high)
                if middle <= low || middle >= high { break }
                if canonical.longitudeDifference(alpha1: middle) < lambda12 {
                    low = middle
                } else {
                    high = middle
                }
            }
            alpha1 = 0.5 * (low + high)
            let solution = canonical.solve(alpha1: alpha1)
            distance = solution.distance
            alpha2 = solution.alpha2
        }

        // Undo the canonical order.
        var (salp1, calp1) = (sin(alpha1), cos(alpha1))
        var (salp2, calp2) = (sin(alpha2), cos(alpha2))
        if swapped {
            (salp1, calp1, salp2, calp2) = (-salp2, -calp2, -salp1, -calp1)
        }
        salp1 *= lonSign
        salp2 *= lonSign
        calp1 *= latSign
        calp2 *= latSign
        if distance.isNaN || lon12.isNaN { distance = .nan }
        return Geodesic(
            distance: distance,
            azimuth1: degrees(atan2(salp1, calp1)),
            azimuth2: degrees(atan2(salp2, calp2)))
    }

    /// The geodesic distance in metres between two points.
    package static func distance(_ point1: GeoPoint, _ point2: GeoPoint) -> Double {
        inverse(point1, point2).distance
    }

    /// Geodesics from a canonical first point (β₁ <= 0) to a canonical second
    /// latitude (|β₂| <= |β₁|), reaching it heading north (cos α₂ >= 0).
    private struct CanonicalLine {
        let sbet1, cbet1, sbet2, cbet2: Double

        struct Evaluation {
            package let lambda12: Double
            package let sigma1: Double
            package let sigma12: Double
            package let k2: Double
            package let salp0: Double
            /// cos α₂ cos β₂.
            package let calp2cbet2: Double
        }

        func longitudeDifference(alpha1: Double) -> Double {
            evaluate(alpha1: alpha1).lambda12
        }

        func solve(alpha1: Double) -> (distance: Double, alpha2: Double) {
            let line = evaluate(alpha1: alpha1)
            let distance = b * distanceIntegral(
                from: line.sigma1, to: line.sigma1 + line.sigma12, k2: line.k2)
            return (distance, atan2(line.salp0, line.calp2cbet2))
        }

        func evaluate(alpha1: Double) -> Evaluation {
            let salp1 = sin(alpha1), calp1 = cos(alpha1)
            let salp0 = salp1 * cbet1
            let calp0 = hypot(calp1, salp1 * sbet1)
            // cos²α₂ cos²β₂ = cos²α₁ cos²β₁ + cos²β₂ − cos²β₁, with the difference
            // of squares written in its better-conditioned form.
            let squares = cbet1 < -sbet1
                ? (cbet2 - cbet1) * (cbet1 + cbet2)
                : (sbet1 - sbet2) * (sbet1 + sbet2)
            let calp2cbet2 = sqrt(max(0, calp1 * cbet1 * calp1 * cbet1 + squares))
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2cbet2
            let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
            let somg2 = salp0 * sbet2, comg2 = calp2cbet2
            let sigma1 = atan2(ssig1, csig1)
            let sigma12 = atan2(nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let omega12 = atan2(nonNegative(comg1 * somg2 - somg1 * comg2), comg1 * comg2 + somg1 * somg2)
            let k2 = secondEccentricitySquared * calp0 * calp0
            let lambda12 = omega12
                - f * salp0 * longitudeIntegral(from: sigma1, to: sigma1 + sigma12, k2: k2)
            return Evaluation(
                lambda12: lambda12, sigma1: sigma1, sigma12: sigma12, k2: k2,
                salp0: salp0, calp2cbet2: calp2cbet2)
        }

        private func nonNegative(_ x: Double) -> Double { x > 0 ? x : 0 }
    }

    // MARK: - Integrals

    private static let quadrature = GaussLegendreQuadrature(order: 12)
    private static let panelWidth = Double.pi / 2

    /// ∫ √(1 + k² sin²σ) dσ (distance / b).
    private static func distanceIntegral(from sigma1: Double, to sigma2: Double, k2: Double) -> Double {
        quadrature.integrate(from: sigma1, to: sigma2, maximumPanelWidth: panelWidth) { sigma in
            let s = sin(sigma)
            return sqrt(1 + k2 * s * s)
        }
    }

    /// ∫ (2 − f) / (1 + (1 − f) √(1 + k² sin²σ)) dσ (the longitude correction).
    private static func longitudeIntegral(from sigma1: Double, to sigma2: Double, k2: Double) -> Double {
        quadrature.integrate(from: sigma1, to: sigma2, maximumPanelWidth: panelWidth) { sigma in
            let s = sin(sigma)
            return (2 - f) / (1 + (1 - f) * sqrt(1 + k2 * s * s))
        }
    }

    // MARK: - Angles

    /// (sin β, cos β) of the reduced latitude, tan β = (1 − f) tan φ; cos β is
    /// kept positive so that azimuths at the poles stay meaningful.
    private static func reducedLatitude(_ latitude: Double) -> (Double, Double) {
        let (sphi, cphi) = sinCos(degrees: latitude)
        let sbet = (1 - f) * sphi, cbet = cphi
        let norm = hypot(sbet, cbet)
        return (sbet / norm, max(cbet / norm, 1e-300))
    }

    /// sin and cos of an angle in degrees, exact at multiples of 90°.
    private static func sinCos(degrees angle: Double) -> (Double, Double) {
        guard angle.isFinite else { return (.nan, .nan) }
        let quadrant = (angle / 90).rounded()
        let rest = radians(angle - 90 * quadrant)
        let s = sin(rest), c = cos(rest)
        switch Int(remainder(quadrant, 4)) {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2, -2: return (-s, -c)
        default: return (-c, s)
        }
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    private static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
