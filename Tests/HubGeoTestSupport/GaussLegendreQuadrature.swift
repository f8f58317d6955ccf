import Foundation

/// Gauss–Legendre quadrature: integrates smooth functions with nodes and
/// weights computed at start-up (Newton's method on the Legendre polynomial).
package struct GaussLegendreQuadrature: Sendable {
    /// Nodes in (-1, 1) and their weights.
    package let nodes: [Double]
    package let weights: [Double]

    package init(order n: Int) {
        var nodes: [Double] = []
        var weights: [Double] = []
        for i in 1...n {
            var x = cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
            var derivative = 0.0
            for _ in 0..<100 {
                // Legendre recurrence: P_j = ((2j - 1) x P_{j-1} - (j - 1) P_{j-2}) / j.
                var previous = 1.0
                var current = x
                for j in 2...n {
                    let next = (Double(2 * j - 1) * x * current - Double(j - 1) * previous) / Double(j)
                    previous = current
                    current = next
                }
                derivative = Double(n) * (x * current - previous) / (x * x - 1)
                let step = current / derivative
                x -= step
                if abs(step) < 1e-17 { break }
            }
            nodes.append(x)
            weights.append(2 / ((1 - x * x) * derivative * derivative))
        }
        self.nodes = nodes
        self.weights = weights
    }

    /// ∫ from `lower` to `upper` of `integrand`, splitting the interval into
    /// equal panels no wider than `maximumPanelWidth`.
    package func integrate(
        from lower: Double, to upper: Double, maximumPanelWidth: Double,
        _ integrand: (Double) -> Double
    ) -> Double {
        let panels = max(1, Int((abs(upper - lower) / maximumPanelWidth).rounded(.up)))
        let halfWidth = (upper - lower) / Double(2 * panels)
        var total = 0.0
        for panel in 0..<panels {
            let middle = lower + halfWidth * Double(2 * panel + 1)
            var sum = 0.0
            for (node, weight) in zip(nodes, weights) {
                sum += weight * integrand(middle + halfWidth * node)
            }
            total += sum * halfWidth
        }
        return total
    }
}
