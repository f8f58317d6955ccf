import ArgumentParser
import HubGeo

/// The file formats `hubgeo export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case geojson
    case kml
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export organizations as GeoJSON (RFC 7946) or KML 2.2.",
        discussion: """
            Writes to standard output, or with -o to a file that appears only once complete (a device, a FIFO or /dev/stdout is written in place). \
            Filters as in the queries: --type, --near LAT LON --km R, --bbox MINLAT MINLON MAXLAT MAXLON \
            (as hubgeo bbox), --search TEXT. Organizations come grouped by type (clubs, then museums), \
            by id within a type. --lang picks the remark language (else English, else any) and adds the \
            localized town (with localizedTownSource: nominatim, or level1 where Nominatim has no town) and \
            country where the geocoder has them cached, from the endpoint and zoom localize would use.
            Examples: hubgeo export geojson -o clubs.geojson --type club
                      hubgeo export kml --near 51.4 5.4 --km 25 > eindhoven.kml
            """)

    @Argument(help: "geojson or kml.")
    var format: ExportFormat

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
        "Output file; - for standard output (the default).", valueName: "file"))
    var output: String = "-"

    @OptionGroup var languageOption: LanguageOption

    @OptionGroup var selectionOptions: SelectionOptions

    @Flag(help: "Indent the output.")
    var pretty = false

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        try selectionOptions.finish(Self.self)
        if output.isEmpty { throw ValidationError("-o needs a file name, or - for standard output") }
    }

    func run() throws {
        let localization = try languageOption.source()
        let store = try database.openStoreForQueries()
        let selection = selectionOptions.selection
        let sink = try OutputFile(path: output, protecting: [store.path], format: format == .kml ? .xml : .json)
        do {
            let count = try export(store: store, selection: selection, localization: localization, to: sink)
            try sink.commit()
            if !sink.isStandardStream { Console.note("Wrote \(counted(count, "organization")) to \(output).") }
        } catch {
            sink.abandon()
            throw error
        }
    }

    /// Streams the organizations, one type after the other, through the writer; returns how many.
    /// Every type comes from the same snapshot of the database, whatever an import commits meanwhile.
    @discardableResult
    func export(store: OrganizationStore, selection: OrganizationSelection, localization: LocalizationSource?, to sink: ExportSink) throws -> Int {
        try store.snapshot { store in try export(snapshot: store, selection: selection, localization: localization, to: sink) }
    }

    private func export(snapshot store: borrowing StoreSnapshot, selection: OrganizationSelection, localization: LocalizationSource?,
                        to sink: ExportSink) throws -> Int {
        let language = localization?.language
        let writer: OrganizationWriter = switch format {
        case .geojson: GeoJSONWriter(sink: sink, language: language, pretty: pretty)
        case .kml: KMLWriter(sink: sink, language: language, pretty: pretty)
        }
        var count = 0
        try writer.begin()
        for type in selectionOptions.type.map({ [$0] }) ?? OrganizationType.allCases {
            let filter = OrganizationFilter(type: type, localization: localization)
            count += try store.export(selection, filter: filter, to: writer)
        }
        try writer.finish()
        return count
    }
}
