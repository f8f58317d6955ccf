import ArgumentParser
import HubGeo

/// What the user typed that the argument parser recognised as nothing else, read as typed:
/// numbers that may be negative (latitudes, longitudes, box corners) and text that may start
/// with a minus (`hubgeo search -5`).
///
/// swift-argument-parser reads `-33.87` as a cluster of short options (its issue #31), so it
/// cannot hand such a token to an `@Argument` or to an option's values. A command that takes
/// them declares one `@Argument(parsing: .allUnrecognized)` array: the parser puts there, in
/// the order typed, every input it recognised as nothing else (after `--`, everything). Values
/// are taken from it here, exactly as typed: a token that is a number is a value wherever it
/// stands. Whatever is left (a mistyped option, a stray word) is refused the way the parser
/// refuses it, quoting it as typed.
struct UnrecognizedInputs {
    private var inputs: ArraySlice<String>
    /// Where the inputs after `--` start: values, whatever they look like.
    private let firstAfterTerminator: Int

    init(_ inputs: [String]) {
        // The parser hands over its `--` too, as the first "--" among them.
        if let terminator = inputs.firstIndex(of: "--") {
            var rest = inputs
            rest.remove(at: terminator)
            self.inputs = rest[...]
            firstAfterTerminator = terminator
        } else {
            self.inputs = inputs[...]
            firstAfterTerminator = inputs.count
        }
    }

    /// True when the input at `index` was typed as an option: it starts with `-`, comes before
    /// any `--`, and is not a number.
    private func isOption(at index: Int) -> Bool {
        let input = inputs[index]
        return index < firstAfterTerminator && input.count > 1 && input.hasPrefix("-") && Double(input) == nil
    }

    /// Up to `count` of the next inputs that are numbers, as degrees; stops at one that is not
    /// (left for ``finish(_:)`` to refuse). The caller says what a missing number means.
    mutating func take(upTo count: Int) -> [Degrees] {
        var taken: [Degrees] = []
        while taken.count < count, let input = inputs.first, let degrees = Degrees(argument: input) {
            taken.append(degrees)
            inputs.removeFirst()
        }
        return taken
    }

    /// What has not been taken, in the order typed.
    var remaining: [String] { Array(inputs) }

    /// Refuses anything left over as the parser would: an unknown option (with the nearest of
    /// `command`'s options, as the parser suggests one), or an unexpected argument.
    func finish(_ command: ParsableCommand.Type) throws {
        if let option = inputs.indices.first(where: isOption) {
            throw Self.unknownOption(inputs[option], of: command)
        }
        guard !inputs.isEmpty else { return }
        let extra = inputs.map { "'\($0)'" }
        throw ValidationError(extra.count == 1 ? "Unexpected argument \(extra[0])" : "\(extra.count) unexpected arguments: \(extra.joined(separator: ", "))")
    }

    /// "Unknown option '--kn'. Did you mean '--km'?": the long options of `command`'s help are
    /// the candidates (read only on this error path).
    private static func unknownOption(_ input: String, of command: ParsableCommand.Type) -> ValidationError {
        let name = input.split(separator: "=", maxSplits: 1).first.map(String.init) ?? input
        guard name.hasPrefix("--") else { return ValidationError("Unknown option '\(name)'") }
        let help = command.helpMessage(columns: 1000)
        var candidates: [String] = []
        for word in help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "|" }) where word.hasPrefix("--") {
            let option = String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
            if option.count > 2, !candidates.contains(option) { candidates.append(option) }
        }
        // The parser's own rule: the nearest long name within an edit distance of 3.
        if let nearest = Levenshtein.nearest(to: name, in: candidates, maxDistance: 3) {
            return ValidationError("Unknown option '\(name)'. Did you mean '\(nearest)'?")
        }
        return ValidationError("Unknown option '\(name)'")
    }
}

extension UnrecognizedInputs {
    /// The numbers that `inputs` (all of them) type, one for each of `names` (their places in the
    /// usage, `<latitude>`), as the parser would read positional arguments: a missing one, one that
    /// is not a decimal number, or anything left over is the usage error, quoting it as typed.
    static func numbers(_ inputs: [String], named names: [String], of command: ParsableCommand.Type) throws -> [Double] {
        var remaining = UnrecognizedInputs(inputs)
        var values: [Double] = []
        for name in names {
            if let degrees = remaining.take(upTo: 1).first {
                values.append(degrees.value)
                continue
            }
            guard let input = remaining.inputs.first else { throw ValidationError("Missing expected argument '\(name)'") }
            if remaining.isOption(at: remaining.inputs.startIndex) { try remaining.finish(command) }
            throw ValidationError("The value '\(input)' is invalid for '\(name)': it is not a decimal number")
        }
        try remaining.finish(command)
        return values
    }

    /// The point that `inputs` (all of them) type as LATITUDE LONGITUDE, checked as every command
    /// checks one; throws the usage error for anything else, quoting it as typed.
    static func point(_ inputs: [String], of command: ParsableCommand.Type) throws -> GeoPoint {
        let values = try numbers(inputs, named: ["<latitude>", "<longitude>"], of: command)
        try SelectionOptions.checkLatitude(values[0])
        try SelectionOptions.checkLongitude(values[1])
        return GeoPoint(latitude: values[0], longitude: values[1])
    }
}

extension UnrecognizedInputs {
    /// The one value that `inputs` (all of them) type, as typed (`hubgeo search -5`, `hubgeo show
    /// -- --x`); `name` is its place in the usage (`<text>`). Throws the usage error otherwise.
    static func text(_ inputs: [String], named name: String, of command: ParsableCommand.Type) throws -> String {
        var remaining = UnrecognizedInputs(inputs)
        guard let first = remaining.inputs.first, !remaining.isOption(at: remaining.inputs.startIndex) else {
            try remaining.finish(command)
            throw ValidationError("Missing expected argument '\(name)'")
        }
        remaining.inputs.removeFirst()
        try remaining.finish(command)
        return first
    }
}
