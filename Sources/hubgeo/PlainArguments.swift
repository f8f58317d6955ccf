import ArgumentParser

/// The arguments of a query command in their plain forms: values, and long options each given
/// once as `--name value`. The query commands (``plainCommands``) are read from these without
/// swift-argument-parser, whose reflection over a command's properties and first-use type
/// checks are about half of a query's start-up. Anything else (help, `--version`, a flag,
/// `--name=value`, `--`, a repeated or unknown option, a value the command refuses) is declined
/// and left to the parser, which answers it as always.
///
/// Each such command (``PlainParsable``) and its option groups have a `plain(_:)` that sets
/// every property, defaults included, and validates as the parser would. `PlainArgumentsTests` checks, for each
/// form, that it is declined or read exactly as the parser reads it (property by property).
struct PlainArguments {
    /// Thrown when the arguments are not plain, or not what the command accepts.
    struct Declined: Error {}

    /// The commands read this way.
    static let plainCommands: [any PlainParsable.Type] = [
        NearCommand.self, BBoxCommand.self, SearchCommand.self, ShowCommand.self, StatsCommand.self,
    ]

    private var values: [String]
    private var options: [(name: String, value: String)] = []
    private var nextValue = 0

    /// The command `arguments` name, read from plain arguments; nil when it is not one of
    /// ``plainCommands`` or anything in `arguments` is declined. Negative numbers come protected
    /// (``NegativeNumberArguments``), as the parser sees them.
    static func command(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first,
              let type = plainCommands.first(where: { $0.configuration.commandName == name }),
              var plain = PlainArguments(arguments.dropFirst())
        else { return nil }
        do {
            var command = try type.plain(&plain)
            try plain.finish()
            try command.validate()
            return command
        } catch {
            return nil
        }
    }

    private init?(_ arguments: ArraySlice<String>) {
        values = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            guard argument.hasPrefix("-") else {
                values.append(argument)
                index += 1
                continue
            }
            guard argument.hasPrefix("--"), argument.utf8.count > 2, !argument.contains("="),
                  index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("-")
            else { return nil }
            let name = String(argument.dropFirst(2))
            guard !options.contains(where: { $0.name == name }) else { return nil }
            options.append((name, arguments[index + 1]))
            index += 2
        }
    }

    /// The next value, converted as the parser converts it.
    mutating func value<Value: ExpressibleByArgument>(_: Value.Type = Value.self) throws(Declined) -> Value {
        guard nextValue < values.count, let value = Value(argument: values[nextValue]) else { throw Declined() }
        nextValue += 1
        return value
    }

    /// The value of `--name` converted as the parser converts it, nil when it is not given.
    mutating func option<Value: ExpressibleByArgument>(_ name: String, _: Value.Type = Value.self) throws(Declined) -> Value? {
        guard let index = options.firstIndex(where: { $0.name == name }) else { return nil }
        guard let value = Value(argument: options.remove(at: index).value) else { throw Declined() }
        return value
    }

    /// Declines what is left over: a value or an option the command does not have.
    func finish() throws(Declined) {
        guard nextValue == values.count, options.isEmpty else { throw Declined() }
    }
}

/// A command that can be read from ``PlainArguments``.
protocol PlainParsable: ParsableCommand {
    /// The command with every property set from `arguments` (defaults as declared), its option
    /// groups' too, each group `validate()`d as the parser would (``PlainArguments/command(_:)``
    /// then declines what is left over and validates the command itself). (A
    /// function, not an initializer: in an initializer, assigning a property of swift-argument-
    /// parser's wrappers makes a new definition, not a value.)
    static func plain(_ arguments: inout PlainArguments) throws -> Self
}
