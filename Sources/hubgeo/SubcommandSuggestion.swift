import ArgumentParser
import HubGeo

/// "Unknown subcommand 'neer'. Did you mean 'near'?" for a mistyped subcommand. swift-argument-parser
/// suggests the nearest option for a mistyped option, but reports a mistyped subcommand only as
/// unexpected arguments (`Error: 3 unexpected arguments: 'neer', '51', '5'`).
enum SubcommandSuggestion {
    /// The usage error (exit 64, with the usage) to report instead of a parse failure when the first
    /// of `arguments` names no subcommand of `command` but is a likely typo of one; nil otherwise.
    static func error(for arguments: [String], of command: ParsableCommand.Type) -> ValidationError? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        // `help` is the subcommand swift-argument-parser adds: `hubgeo help near`.
        let names = command.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word), let nearest = Levenshtein.nearest(to: word, in: names) else { return nil }
        return ValidationError("Unknown subcommand '\(word)'. Did you mean '\(nearest)'?")
    }
}
