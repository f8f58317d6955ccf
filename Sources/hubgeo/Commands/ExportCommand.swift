import ArgumentParser
import Foundation
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
            Writes to standard output, or with -o to a file that appears only once complete. \
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

    @Option(help: "Only organizations of this type (club or museum).")
    var type: OrganizationType?

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Only organizations within --km of this point.", valueName: "lat lon"))
    var near: [Degrees] = []

    @Option(help: "Radius in kilometres for --near.")
    var km: Double?

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Only organizations inside this box (south-west then north-east corner).",
        valueName: "minlat minlon maxlat maxlon"))
    var bbox: [Degrees] = []

    @Option(help: "Only organizations whose name, nickname or town contains this text.")
    var search: String?

    @Flag(help: "Indent the output.")
    var pretty = false

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        let filters = [!near.isEmpty, !bbox.isEmpty, search != nil].filter { $0 }.count
        if filters > 1 { throw ValidationError("give at most one of --near, --bbox and --search") }
        if !near.isEmpty {
            guard near.count == 2 else { throw ValidationError("--near takes two numbers: LAT LON") }
            try Self.checkLatitude(near[0].value)
            try Self.checkLongitude(near[1].value)
            guard let km else { throw ValidationError("--near needs --km R") }
            guard km > 0 && km.isFinite else { throw ValidationError("--km must be a positive number of kilometres") }
        } else if km != nil {
            throw ValidationError("--km goes with --near")
        }
        if !bbox.isEmpty {
            guard bbox.count == 4 else { throw ValidationError("--bbox takes four numbers: MINLAT MINLON MAXLAT MAXLON") }
            try Self.checkLatitude(bbox[0].value)
            try Self.checkLongitude(bbox[1].value)
            try Self.checkLatitude(bbox[2].value)
            try Self.checkLongitude(bbox[3].value)
            if bbox[0].value > bbox[2].value {
                throw ValidationError("MINLAT \(bbox[0].value) is north of MAXLAT \(bbox[2].value)")
            }
        }
        if output.isEmpty { throw ValidationError("-o needs a file name, or - for standard output") }
    }

    var selection: OrganizationSelection {
        if near.count == 2, let km {
            return .near(GeoPoint(latitude: near[0].value, longitude: near[1].value), radiusMeters: km * 1000)
        }
        if bbox.count == 4 {
            return .within(west: bbox[1].value, south: bbox[0].value, east: bbox[3].value, north: bbox[2].value)
        }
        if let search { return .search(search) }
        return .all
    }

    func run() throws {
        let localization = try languageOption.source()
        let store = try database.openStoreForQueries()
        let selection = self.selection
        if output == "-" {
            fflush(nil)
            let sink = FileDescriptorSink.standardOutput()
            try export(store: store, selection: selection, localization: localization, to: sink)
            try sink.flush()
        } else {
            let sink = try AtomicFileSink(path: output)
            do {
                let count = try export(store: store, selection: selection, localization: localization, to: sink)
                try sink.commit()
                Console.note("Wrote \(count) organization\(count == 1 ? "" : "s") to \(output).")
            } catch {
                sink.abandon()
                throw error
            }
        }
    }

    /// Streams the organizations, one type after the other, through the writer; returns how many.
    @discardableResult
    func export(store: OrganizationStore, selection: OrganizationSelection, localization: LocalizationSource?, to sink: ExportSink) throws -> Int {
        let language = localization?.language
        let writer: OrganizationWriter = switch format {
        case .geojson: GeoJSONWriter(sink: sink, language: language, pretty: pretty)
        case .kml: KMLWriter(sink: sink, language: language, pretty: pretty)
        }
        var count = 0
        try writer.begin()
        for type in type.map({ [$0] }) ?? OrganizationType.allCases {
            let filter = OrganizationFilter(type: type, localization: localization)
            count += try store.export(selection, filter: filter, to: writer)
        }
        try writer.finish()
        return count
    }

    static func checkLatitude(_ value: Double) throws {
        guard (-90...90).contains(value) else { throw ValidationError("latitude \(value) is outside -90...90") }
    }

    static func checkLongitude(_ value: Double) throws {
        guard (-180...180).contains(value) else { throw ValidationError("longitude \(value) is outside -180...180") }
    }
}
