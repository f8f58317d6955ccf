import ArgumentParser
import Foundation
import HubGeo
#if canImport(Glibc)
import Glibc
#endif

/// The archives `hubgeo tiles` writes (``TileArchiveFormat``).
extension TileArchiveFormat: ExpressibleByArgument {}

struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Write the organizations as vector tiles (MVT): PMTiles, MBTiles or a z/x/y folder.",
        discussion: """
            The clusters of the map for zooms 0 to --max-zoom, as Mapbox Vector Tiles 2.1: layer clusters (count, clubs, \
            museums, expansionZoom, and the box west, south, east, north) and layer organizations (an organization alone: \
            kind organization, id, name, nickName, type, town, with --lang localizedTown and localizedCountry; organizations at \
            exactly the same coordinates: kind colocated, count, clubs, museums and their list as JSON text). \
            The format follows the name: .pmtiles (PMTiles v3, for any static host), .mbtiles (MBTiles 1.3), else a folder of \
            z/x/y.mvt files with metadata.json; --format overrides. The archive appears only once complete. \
            The default --max-zoom is the first zoom at which no two locations share a cluster, at most 14; map clients zoom \
            in further on the last tiles. Filters as in export: --type, --near LAT LON --km R, --bbox, --search (a selection \
            is clustered first). Progress on a terminal.
            Examples: hubgeo tiles -o clubs.pmtiles
                      hubgeo tiles -o clubs.mbtiles --lang nl --max-zoom 10
            """)

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "The archive: NAME.pmtiles, NAME.mbtiles or a folder.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("pmtiles, mbtiles or folder (default: from the name).", valueName: "format"))
    var format: TileArchiveFormat?

    // Taken whatever it looks like, as --near's first number is (``SelectionOptions``): the parser reads
    // `-1` as an option and would say only "Missing value"; validate() then says what was typed and the range.
    @Option(name: .customLong("max-zoom"), parsing: .unconditional, help: ArgumentHelp(
        "The highest zoom written, 0 to \(TilesCommand.zoomLimit) (default: what the data needs, at most 14).", valueName: "z"))
    var maxZoom: Int?

    @OptionGroup var languageOption: LanguageOption

    @OptionGroup var selectionOptions: SelectionOptions

    @OptionGroup var database: DatabaseOptions

    /// The highest zoom written: the cluster index's own limit.
    static let zoomLimit = 24

    func validate() throws {
        try selectionOptions.finish(Self.self)
        if output.isEmpty || output == "-" { throw ValidationError("-o needs a file or folder name (tiles are not written to standard output)") }
        if let maxZoom, !(0...Self.zoomLimit).contains(maxZoom) {
            throw ValidationError("--max-zoom must be 0 to \(Self.zoomLimit), not \(maxZoom)")
        }
        if format == nil && TileArchiveFormat.infer(from: output) == nil {
            throw ValidationError("cannot tell the format of \(output) from its name: end it in .pmtiles or .mbtiles, "
                + "give a folder name without an extension, or add --format pmtiles|mbtiles|folder")
        }
    }

    func run() throws {
        Interruption.installSignalHandlers()
        let localization = try languageOption.source()
        let store = try database.openStoreForQueries()
        let format = self.format ?? TileArchiveFormat.infer(from: output) ?? .folder
        // Every format through the one publisher, which refuses the database read and its companions.
        let archive: TileArchiveWriter = try wrap {
            switch format {
            case .pmtiles: return try PMTilesWriter(path: output, protecting: [store.path])
            case .mbtiles: return try MBTilesWriter(path: output, protecting: [store.path])
            case .folder: return try TileFolderWriter(path: output, protecting: [store.path])
            }
        }
        let display = TileProgressDisplay(isTerminal: isatty(2) == 1)
        let summary = try wrap {
            try store.writeTiles(to: archive, selection: selectionOptions.selection, type: selectionOptions.type,
                                 localization: localization, maximumZoom: maxZoom,
                                 progress: display.isTerminal ? display.show : nil)
        }
        display.finish()
        let count = summary.organizations
        Console.note("Wrote \(output): \(counted(summary.tiles, "tile")) of zooms 0-\(summary.maximumZoom), "
            + "\(counted(count, "organization")).")
    }

    /// Archive errors as hubgeo's errors (exit 1, the message alone).
    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TileArchiveError {
            throw ExportError(error.description)
        }
    }
}

/// The progress of `hubgeo tiles` on a terminal: a redrawn line on stderr (zoom, tiles, time left).
final class TileProgressDisplay {
    let isTerminal: Bool
    private var drew = false

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func show(_ p: TileProgress) {
        guard isTerminal else { return }
        let width = 24
        let filled = min(width, Int(Double(width) * p.fraction))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let eta = p.estimatedRemaining.map { ", ETA \(ProgressDisplay.clock($0))" } ?? ""
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] zoom \(p.zoom)/\(p.maximumZoom), \(p.tiles) tiles\(eta)".utf8))
        drew = true
    }

    func finish() {
        if drew { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
