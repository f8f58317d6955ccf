import ArgumentParser
import HubGeo

/// An angle in degrees given on the command line, as typed: a finite number in decimal notation
/// (``DecimalNumber``).
struct Degrees: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let value = DecimalNumber.parse(argument) else { return nil }
        self.value = value
    }
}
