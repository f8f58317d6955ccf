import ArgumentParser
import HubGeo

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of Level 0, 1 or 2 files, for editors and CI.",
        discussion: """
            The schemas describe each key with a title and a description that editors show on hover, and reject \\
            what `hubgeo validate` reports as an error about a file's shape (unknown keys stay allowed: validate \\
            only warns about them). They are also in docs/schemas/ of hubgeo's repository, byte for byte.
            """)

    @Argument(help: "level0, level1 or level2.")
    var level: DocumentKind

    func run() throws {
        guard let schema = EmbeddedSchemas.schema(of: level) else { throw ExitCode(1) }
        Console.printVerbatim(String(decoding: schema, as: UTF8.self), terminator: "")
    }
}

extension DocumentKind: ExpressibleByArgument {}
