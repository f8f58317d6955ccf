#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The inverse geodesic problem on the WGS84 ellipsoid: the length of the shortest path
/// between two points, accurate to a few nanometres anywhere (nearly antipodal points included).
///
/// This is Karney's algorithm (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87,
/// 43–55, 2013): the geodesic is mapped to a great circle on an auxiliary sphere; the distance
/// and longitude integrals are Fourier series in the arc length σ with coefficients expanded to
/// sixth order in the third flattening n and in ε (eqs. 15–25); the starting azimuth comes from
/// the spherical solution, or from the astroid (eq. 55–57) for nearly antipodal points, and is
/// refined by Newton's method on λ₁₂(α₁) (eqs. 33–35) with a bracketing fallback.
/// It needs no extension: `near` computes SpatiaLite's `ST_Distance(a, b, 1)` itself.
public enum Geodesic {
    /// The geodesic distance in metres between two points (degrees), on WGS84.
    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    /// The geodesic distance in metres between two points given in degrees, on WGS84.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        Ellipsoid.wgs84.inverseDistance(latitude1, longitude1, latitude2, longitude2)
    }
}

/// The constants of an ellipsoid of revolution and the series coefficients that depend on it only.
struct Ellipsoid: Sendable {
    static let wgs84 = Ellipsoid(semiMajorAxis: WGS84.semiMajorAxis, flattening: WGS84.flattening)

    let a: Double, f: Double, f1: Double, e2: Double, ep2: Double, n: Double, b: Double
    /// Below this spherical arc a short line needs no Newton iteration.
    let etol2: Double
    /// A3(ε) as a polynomial in ε (highest power first), and C3ₗ(ε) coefficients (eq. 25).
    let a3x: [Double]
    let c3x: [Double]

    init(semiMajorAxis: Double, flattening: Double) {
        a = semiMajorAxis
        f = flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        let thirdFlattening = flattening / (2 - flattening)
        n = thirdFlattening
        b = a * f1
        etol2 = 0.1 * Self.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        // A3: coefficients of ε⁵ ... ε⁰, each a polynomial in n; numerators then the denominator.
        let a3Table: [[Double]] = [[-3, 128], [-2, -3, 64], [-1, -3, -1, 16], [3, -1, -2, 8], [1, -1, 2], [1, 1]]
        a3x = a3Table.map { Self.polynomial($0.dropLast(), thirdFlattening) / $0.last! }
        // C3ₗ for l = 1...5: coefficients of ε⁵ down to εˡ, each a polynomial in n.
        let c3Table: [[Double]] = [
            [3, 128], [2, 5, 128], [-1, 3, 3, 64], [-1, 0, 1, 8], [-1, 1, 4],
            [5, 256], [1, 3, 128], [-3, -2, 3, 64], [1, -3, 2, 32],
            [7, 512], [-10, 9, 384], [5, -9, 5, 192],
            [7, 512], [-14, 7, 512],
            [21, 2560],
        ]
        c3x = c3Table.map { Self.polynomial($0.dropLast(), thirdFlattening) / $0.last! }
    }

    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let degree = Double.pi / 180

    /// Horner's rule; `coefficients` from the highest power down.
    @inline(__always)
    static func polynomial<C: Collection<Double>>(_ coefficients: C, _ x: Double) -> Double {
        var y = 0.0
        for c in coefficients { y = y * x + c }
        return y
    }

    // MARK: Series (order 6)

    /// A₁ - 1 (eq. 17).
    @inline(__always)
    static func a1m1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (eps2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ(ε), l = 1...6 (eq. 18), into c[1...6].
    @inline(__always)
    static func c1(_ eps: Double, _ c: inout (Double, Double, Double, Double, Double, Double)) {
        let eps2 = eps * eps
        var d = eps
        c.0 = d * ((6 - eps2) * eps2 - 16) / 32
        d *= eps
        c.1 = d * ((64 - 9 * eps2) * eps2 - 128) / 2048
        d *= eps
        c.2 = d * (9 * eps2 - 16) / 768
        d *= eps
        c.3 = d * (3 * eps2 - 5) / 512
        d *= eps
        c.4 = -7 * d / 1280
        d *= eps
        c.5 = -7 * d / 2048
    }

    /// A₂ - 1 (eq. 42).
    @inline(__always)
    static func a2m1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (-11 * eps2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ(ε), l = 1...6 (eq. 43).
    @inline(__always)
    static func c2(_ eps: Double, _ c: inout (Double, Double, Double, Double, Double, Double)) {
        let eps2 = eps * eps
        var d = eps
        c.0 = d * (eps2 * (eps2 + 2) + 16) / 32
        d *= eps
        c.1 = d * (eps2 * (35 * eps2 + 64) + 384) / 2048
        d *= eps
        c.2 = d * (15 * eps2 + 80) / 768
        d *= eps
        c.3 = d * (7 * eps2 + 35) / 512
        d *= eps
        c.4 = 63 * d / 1280
        d *= eps
        c.5 = 77 * d / 2048
    }

    @inline(__always)
    func a3(_ eps: Double) -> Double { Self.polynomial(a3x, eps) }

    /// C₃ₗ(ε), l = 1...5 (eq. 25).
    @inline(__always)
    func c3(_ eps: Double, _ c: inout (Double, Double, Double, Double, Double, Double)) {
        var mult = eps
        c.0 = mult * (((c3x[0] * eps + c3x[1]) * eps + c3x[2]) * eps + c3x[3]) * eps + mult * c3x[4]
        mult *= eps
        c.1 = mult * (((c3x[5] * eps + c3x[6]) * eps + c3x[7]) * eps + c3x[8])
        mult *= eps
        c.2 = mult * ((c3x[9] * eps + c3x[10]) * eps + c3x[11])
        mult *= eps
        c.3 = mult * (c3x[12] * eps + c3x[13])
        mult *= eps
        c.4 = mult * c3x[14]
        c.5 = 0
    }

    /// Σ cₗ sin 2lx for l = 1...6 by Clenshaw summation (a series of 5 terms has c₆ = 0).
    @inline(__always)
    static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: (Double, Double, Double, Double, Double, Double)) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2x
        var y1 = c.5
        var y0 = ar * y1 + c.4
        y1 = ar * y0 - y1 + c.3
        y0 = ar * y1 - y0 + c.2
        y1 = ar * y0 - y1 + c.1
        y0 = ar * y1 - y0 + c.0
        return 2 * sinx * cosx * y0
    }

    // MARK: Angles

    /// x + y and the rounding error t of the sum (Knuth's TwoSum).
    @inline(__always)
    static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    /// y - x reduced to [-180, 180], exactly, and its rounding error.
    @inline(__always)
    static func angleDifference(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        var (d, t) = sum(remainder(-x, 360), remainder(y, 360))
        let second = sum(remainder(d, 360), t)
        d = second.s
        t = second.t
        if d == 0 || abs(d) == 180 { d = copysign(d, t == 0 ? y - x : -t) }
        return (d, t)
    }

    /// Rounds tiny angles to 0 so that points very near the equator are on it.
    @inline(__always)
    static func angleRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        let w = z - y
        y = w > 0 ? z - w : y
        return copysign(y, x)
    }

    /// sin and cos of an angle in degrees, exact for multiples of 90°.
    @inline(__always)
    static func sinCos(degrees x: Double) -> (Double, Double) {
        var quadrant: Int32 = 0
        let r = remquo(x, 90, &quadrant) * degree
        let s = sin(r), c = cos(r)
        var sinx: Double, cosx: Double
        switch quadrant & 3 {
        case 0: sinx = s; cosx = c
        case 1: sinx = c; cosx = -s
        case 2: sinx = -s; cosx = -c
        default: sinx = -c; cosx = s
        }
        cosx += 0
        if sinx == 0 { sinx = copysign(sinx, x) }
        return (sinx, cosx)
    }

    @inline(__always)
    static func normalize(_ s: inout Double, _ c: inout Double) {
        let r = hypot(s, c)
        s /= r
        c /= r
    }

    // MARK: Inverse problem

    /// The reduced length m₁₂/b and distance s₁₂/b of the geodesic from σ₁ to σ₂ (eqs. 38–41).
    @inline(__always)
    func lengths(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                 ssig2: Double, csig2: Double, dn2: Double, wantDistance: Bool) -> (s12b: Double, m12b: Double) {
        var ca = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0), cb = ca
        var a1 = Self.a1m1(eps)
        Self.c1(eps, &ca)
        var a2 = Self.a2m1(eps)
        Self.c2(eps, &cb)
        let m0 = a1 - a2
        a1 += 1
        a2 += 1
        var s12b = 0.0
        let j12: Double
        if wantDistance {
            let b1 = Self.sinSeries(ssig2, csig2, ca) - Self.sinSeries(ssig1, csig1, ca)
            s12b = a1 * (sig12 + b1)
            let b2 = Self.sinSeries(ssig2, csig2, cb) - Self.sinSeries(ssig1, csig1, cb)
            j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
        } else {
            let cc = (a1 * ca.0 - a2 * cb.0, a1 * ca.1 - a2 * cb.1, a1 * ca.2 - a2 * cb.2,
                      a1 * ca.3 - a2 * cb.3, a1 * ca.4 - a2 * cb.4, a1 * ca.5 - a2 * cb.5)
            j12 = m0 * sig12 + (Self.sinSeries(ssig2, csig2, cc) - Self.sinSeries(ssig1, csig1, cc))
        }
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// The positive root of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0 (eq. 55).
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    /// A first estimate of α₁ (and, for short lines, the whole answer as σ₁₂ ≥ 0).
    func inverseStart(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                      lam12: Double, slam12: Double, clam12: Double)
        -> (sig12: Double, salp1: Double, calp1: Double, dnm: Double) {
        var sig12 = -1.0
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        var dnm = 0.0
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < etol2 {
            sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // The spherical estimate will do.
        } else {
            // Nearly antipodal: scale to the astroid's coordinates (f > 0).
            let lam12x = atan2(-slam12, -clam12)
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            Self.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return (sig12, salp1, calp1, dnm)
    }

    struct LambdaResult {
        var lam12: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double, eps: Double
        var dlam12: Double
    }

    /// λ₁₂ - λ₁₂(target) for a trial α₁, and its derivative (eqs. 33–35, 46).
    @inline(__always)
    func lambda12(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                  salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double, derivative: Bool) -> LambdaResult {
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -Self.tiny }
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        Self.normalize(&ssig1, &csig1)
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        _ = salp2
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? ((calp1 * cbet1) * (calp1 * cbet1)
                + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : abs(calp1)
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        Self.normalize(&ssig2, &csig2)
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        var c = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        c3(eps, &c)
        let b312 = Self.sinSeries(ssig2, csig2, c) - Self.sinSeries(ssig1, csig1, c)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12
        var dlam12 = 0.0
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                dlam12 = lengths(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                 ssig2: ssig2, csig2: csig2, dn2: dn2, wantDistance: false).m12b
                dlam12 *= f1 / (calp2 * cbet2)
            }
        }
        return LambdaResult(lam12: lam12, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2,
                            eps: eps, dlam12: dlam12)
    }

    /// The geodesic distance in metres between (lat1, lon1) and (lat2, lon2), degrees.
    func inverseDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        var (lon12, lon12s) = Self.angleDifference(longitude1, longitude2)
        var lonsign: Double = lon12 >= 0 ? 1 : -1
        lon12 = lonsign * Self.angleRound(lon12)
        lon12s = Self.angleRound((180 - lon12) - lonsign * lon12s)
        let lam12 = lon12 * Self.degree
        var slam12: Double, clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = Self.sinCos(degrees: lon12s)
            clam12 = -clam12
        } else {
            (slam12, clam12) = Self.sinCos(degrees: lon12)
        }
        var lat1 = Self.angleRound(abs(latitude1) > 90 ? .nan : latitude1)
        var lat2 = Self.angleRound(abs(latitude2) > 90 ? .nan : latitude2)
        // Canonical order: |lat1| ≥ |lat2|, lat1 ≤ 0.
        if abs(lat1) < abs(lat2) {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1 < 0 ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign
        _ = lonsign

        var (sbet1, cbet1) = Self.sinCos(degrees: lat1)
        sbet1 *= f1
        Self.normalize(&sbet1, &cbet1)
        cbet1 = max(Self.tiny, cbet1)
        var (sbet2, cbet2) = Self.sinCos(degrees: lat2)
        sbet2 *= f1
        Self.normalize(&sbet2, &cbet2)
        cbet2 = max(Self.tiny, cbet2)
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2 < 0 ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var s12x = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Both points on one meridian: α₁ = λ₁₂ (0 or 180°), α₂ = 0.
            let calp1 = clam12
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = cbet2
            var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let (s12b, m12b) = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                       ssig2: ssig2, csig2: csig2, dn2: dn2, wantDistance: true)
            s12x = s12b
            if sig12 < 1 || m12b >= 0 {
                if sig12 < 3 * Self.tiny {
                    sig12 = 0
                    s12x = 0
                }
                s12x *= b
            } else {
                meridian = false  // prolate and nearly antipodal: not the shortest path
            }
        }
        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator.
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            if start.sig12 >= 0 {
                s12x = start.sig12 * b * start.dnm
            } else {
                var salp1 = start.salp1, calp1 = start.calp1
                var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
                var tripn = false, tripb = false
                var result = LambdaResult(lam12: 0, sig12: 0, ssig1: 0, csig1: 0, ssig2: 0, csig2: 0, eps: 0, dlam12: 0)
                var iteration = 0
                while iteration < Self.maxit2 {
                    defer { iteration += 1 }
                    result = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                      salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                                      derivative: iteration < Self.maxit1)
                    let v = result.lam12
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * Self.tol0) { break }
                    if v > 0 && (iteration > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (iteration > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    if iteration < Self.maxit1 && result.dlam12 > 0 {
                        let dalp1 = -v / result.dlam12
                        let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 && abs(dalp1) < .pi {
                            calp1 = calp1 * cdalp1 - salp1 * sdalp1
                            salp1 = nsalp1
                            Self.normalize(&salp1, &calp1)
                            tripn = abs(v) <= 16 * Self.tol0
                            continue
                        }
                    }
                    // Bisect the bracket when Newton's step is unusable.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    Self.normalize(&salp1, &calp1)
                    tripn = false
                    tripb = abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
                }
                s12x = lengths(eps: result.eps, sig12: result.sig12, ssig1: result.ssig1, csig1: result.csig1, dn1: dn1,
                               ssig2: result.ssig2, csig2: result.csig2, dn2: dn2, wantDistance: true).s12b * b
            }
        }
        return 0 + s12x
    }
}
