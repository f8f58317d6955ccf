import ArgumentParser

/// An angle in degrees given on the command line. Negative values work as plain arguments
/// (`hubgeo near -33.87 151.21`): `HubGeoCommand.main` marks them so that the argument parser
/// does not read them as options.
struct Degrees: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let value = Double(NegativeNumberArguments.unprotect(argument)), value.isFinite else { return nil }
        self.value = value
    }
}

/// ArgumentParser reads `-33.87` as a cluster of short options. hubgeo has no short options
/// made of digits, so a token that is a negative number is rewritten with U+2212 MINUS SIGN
/// before parsing and read back as a number by `Degrees`.
enum NegativeNumberArguments {
    static let minusSign = "\u{2212}"

    static func protect(_ arguments: [String]) -> [String] {
        arguments.map { argument in
            guard argument.count > 1, argument.hasPrefix("-"), Double(argument) != nil else { return argument }
            return minusSign + argument.dropFirst()
        }
    }

    static func unprotect(_ argument: String) -> String {
        argument.hasPrefix(minusSign) ? "-" + argument.dropFirst() : argument
    }
}
