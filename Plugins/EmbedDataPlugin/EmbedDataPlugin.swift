import Foundation
import PackagePlugin

/// Embeds files into the binary at build time: the package's `Data/` folder into the reader
/// (`EmbeddedData`), `docs/schemas/` into the validation target (`EmbeddedSchemas`, for
/// `hubgeo schema`), and the map page's web files (`Map/Web/*.js` and `*.css`, which Package.swift
/// excludes from the target's sources) into the export target (`MapWebFiles`).
@main
struct EmbedDataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedData").url
        if target.name == "HubGeoExport" {
            let folder = target.directoryURL.appending(path: "Map/Web")
            let inputs = try files(in: folder, endingWith: [".js", ".css"])
            let output = context.pluginWorkDirectoryURL.appending(path: "MapWebFiles+Embedded.swift")
            return [
                .buildCommand(
                    displayName: "Embedding the map page's web files (\(inputs.count) files)",
                    executable: tool,
                    arguments: ["--web", output.path, "MapWebFiles"] + inputs.map(\.path),
                    inputFiles: inputs,
                    outputFiles: [output])
            ]
        }
        let (folder, typeName) = target.name == "HubGeoValidation" ? ("docs/schemas", "EmbeddedSchemas") : ("Data", "EmbeddedData")
        let dataDirectory = context.package.directoryURL.appending(path: folder)
        let inputs = try files(in: dataDirectory, endingWith: [".json"])
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDataFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(folder)/ (\(inputs.count) files)",
                executable: tool,
                arguments: [dataDirectory.path, output.path, typeName],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// The files of `folder` whose names end with one of `suffixes`, by name.
    func files(in folder: URL, endingWith suffixes: [String]) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { name in suffixes.contains { name.hasSuffix($0) } }
            .sorted()
            .map { folder.appending(path: $0) }
    }
}
