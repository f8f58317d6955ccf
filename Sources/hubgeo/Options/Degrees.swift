import ArgumentParser

/// An angle in degrees given on the command line, as typed: a finite decimal number.
struct Degrees: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self.value = value
    }
}
