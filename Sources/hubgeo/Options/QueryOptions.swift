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

    @Option(help: "Print at most this many results.")
    var limit: Int?

    @Option(help: "Skip this many results first.")
    var offset: Int = 0

    @Option(help: "Output format: table, json or geojson.")
    var format: OutputFormat = .table

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    var filter: OrganizationFilter {
        OrganizationFilter(type: type, limit: limit, offset: offset, language: language.code,
                           preferredEndpoint: language.code == nil ? nil : language.preferredEndpoint)
    }
}
