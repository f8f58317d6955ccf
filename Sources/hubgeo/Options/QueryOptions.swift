import ArgumentParser
import HubGeo

extension OrganizationType: ExpressibleByArgument {}

/// How query results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table
    case json
    /// A GeoJSON FeatureCollection, the same shape as `hubgeo export geojson`.
    case geojson
}

/// The options every query shares: type filter, paging, output format and display language.
struct QueryOptions: ParsableArguments {
    @Option(help: "Only organizations of this type (club or museum).")
    var type: OrganizationType?

    @Option(help: ArgumentHelp("Print at most N results; 0 prints none (0 to 1000000000).", valueName: "N"))
    var limit: Int?

    @Option(help: ArgumentHelp("Skip the first N results (0 to 1000000000).", valueName: "N"))
    var offset: Int = 0

    @Option(help: "Output format: table, json or geojson.")
    var format: OutputFormat = .table

    @OptionGroup var language: LanguageOption

    func validate() throws {
        try CountBounds.check(limit, "--limit")
        try CountBounds.check(offset, "--offset")
    }

    /// The filter; with --lang, it carries the cached answers to show (see ``LanguageOption/source()``).
    func filter() throws -> OrganizationFilter {
        OrganizationFilter(type: type, limit: limit, offset: offset, localization: try language.source())
    }
}
