import Foundation
import PackagePlugin

/// Embeds the package's `Data/` folder into the reader (`EmbeddedData`), and `docs/schemas/`
/// into the validation target (`EmbeddedSchemas`, for `hubgeo schema`), at build time.
@main
struct EmbedDataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let (folder, typeName) = target.name == "HubGeoValidation" ? ("docs/schemas", "EmbeddedSchemas") : ("Data", "EmbeddedData")
        let dataDirectory = context.package.directoryURL.appending(path: folder)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
            .map { dataDirectory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDataFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(folder)/ (\(inputs.count) files)",
                executable: try context.tool(named: "EmbedData").url,
                arguments: [dataDirectory.path, output.path, typeName],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
