import Foundation
import PackagePlugin

/// Embeds the package's `Data/` folder into the HubGeo library at build time.
@main
struct EmbedDataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dataDirectory = context.package.directoryURL.appending(path: "Data")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
            .map { dataDirectory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDataFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Data/ (\(inputs.count) files)",
                executable: try context.tool(named: "EmbedData").url,
                arguments: [dataDirectory.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
