import ArgumentParser

/// The range of every count and offset on the command line (`--limit`, `--offset`, `--nearest`,
/// `--max-requests`, `--progress-every`): at most one billion, far beyond any Photo Club Hub data
/// set, so that no sum of them can overflow. A number outside is a usage error naming the option.
enum CountBounds {
    static let maximum = 1_000_000_000

    /// Throws a usage error unless `value` (when given) is in `minimum...maximum`.
    static func check(_ value: Int?, _ option: String, minimum: Int = 0) throws {
        guard let value, !(minimum...maximum).contains(value) else { return }
        throw ValidationError("\(option) must be \(minimum) to \(maximum), not \(value)")
    }
}
