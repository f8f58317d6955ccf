import ArgumentParser
import Foundation
import HubGeo

/// The ways `locate` prints its candidates.
enum LocateFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, level1
}

struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Find a club, museum or town with Nominatim's search, and write its Level 1 entry.",
        discussion: """
            Asks Nominatim's /search (one request, at most one per second to the public server, the contact \
            in the User-Agent) and caches the answer in the database: the same search again makes no request \
            (--refresh asks again; --offline answers from the cache only). Each candidate, best first, with its \
            kind, its town by the rule localize uses (city, town, village, municipality, hamlet, suburb), its \
            country, coordinates, OpenStreetMap object, and website and wikipedia when OpenStreetMap has them. \
            Without --lang, the places' local names (what Level 1 files use).
            --format level1 prints candidate --pick (default the first) as a Level 1 entry, checked by \
            hubgeo's Level 1 checks first: paste it into the "clubs" (or, with --type museum, "museums") array.
            Exit status: 0 found, 1 nothing found or a failure, 64 usage.
            Examples: hubgeo locate "Fotomuseum Den Haag"
                      hubgeo locate Asten --format level1 --name "Fotokring Beeldhoek" --nickname fkBeeldhoek
                      hubgeo locate Antwerpen --near 51.2 4.4 --limit 3 --format json
            """)

    /// The query and the second number of --near, as typed (``UnrecognizedInputs``: `--near -33.87 151.21`).
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("What to look for: a name, a town, an address (quote it).", valueName: "query"))
    var typed: [String] = []

    // Reads its first number; the second comes from `typed` (the parser cannot hand a negative
    // number to an option's values).
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Prefer places near this point (about \(Int(PlaceSearch.biasKilometers)) km each way; others are still found).",
        valueName: "lat lon"))
    var near: [Degrees] = []

    @Option(help: ArgumentHelp("At most N candidates, 1 to \(PlaceSearch.maximumLimit).", valueName: "N"))
    var limit: Int = PlaceSearch.defaultLimit

    @Option(name: .customLong("lang"), help: ArgumentHelp("Names in this language (default: the local names).", valueName: "code"))
    var language: String?

    @Option(help: "table, json, or level1 (a ready Level 1 entry).")
    var format: LocateFormat = .table

    @Option(help: "With --format level1: a club or a museum (default club).")
    var type: OrganizationType?

    @Option(help: ArgumentHelp("With --format level1: the fullName (default: the place's name).", valueName: "text"))
    var name: String?

    @Option(help: ArgumentHelp("With --format level1: the nickName (default: made from the name, as Photo Club Hub's files do).",
                               valueName: "text"))
    var nickname: String?

    @Option(help: ArgumentHelp("With --format level1: which candidate, counted from 1 in the table's order.", valueName: "N"))
    var pick: Int?

    @Flag(help: "Answer from the cache only; no network at all.")
    var offline = false

    @Flag(help: "Ask Nominatim again even when the answer is cached, and cache the new one.")
    var refresh = false

    @OptionGroup var nominatim: NominatimOptions
    @OptionGroup var database: DatabaseOptions

    mutating func validate() throws {
        var inputs = typed
        if near.count == 1, let second = inputs.firstIndex(where: { Degrees(argument: $0) != nil }) {
            near.append(Degrees(argument: inputs.remove(at: second))!)
        }
        typed = inputs
        let query = try UnrecognizedInputs.text(typed, named: "<query>", of: Self.self)
        if query.split(whereSeparator: { $0.isWhitespace }).isEmpty { throw ValidationError("the query is empty: say what to look for") }
        if !near.isEmpty {
            guard near.count == 2 else { throw ValidationError("--near takes two numbers: LAT LON") }
            try SelectionOptions.checkLatitude(near[0].value)
            try SelectionOptions.checkLongitude(near[1].value)
        }
        guard (1...PlaceSearch.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be 1 to \(PlaceSearch.maximumLimit)")
        }
        if let language { _ = try LanguageList.parse(language) }
        if format != .level1 {
            for (given, option) in [(type != nil, "--type"), (name != nil, "--name"), (nickname != nil, "--nickname"), (pick != nil, "--pick")]
            where given {
                throw ValidationError("\(option) goes with --format level1")
            }
        }
        if let pick, !(1...limit).contains(pick) { throw ValidationError("--pick must be 1 to --limit (\(limit))") }
        for (value, option) in [(name, "--name"), (nickname, "--nickname")] {
            if let value, value.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("\(option) must not be empty") }
        }
        if offline && refresh { throw ValidationError("give at most one of --offline and --refresh") }
    }

    func run() throws {
        Interruption.installSignalHandlers()
        let search = PlaceSearch(query: try UnrecognizedInputs.text(typed, named: "<query>", of: Self.self),
                                 language: try language.map { try LanguageList.parse($0).joined(separator: ",") },
                                 near: near.count == 2 ? GeoPoint(latitude: near[0].value, longitude: near[1].value) : nil,
                                 limit: limit)
        let configuration = try nominatim.configuration()
        let store = try database.openStore()
        let locator = PlaceLocator(store: store, client: offline ? nil : NominatimClient(configuration: configuration),
                                   configuration: configuration)
        guard let result = try locator.search(search, offline: offline, refresh: refresh) else {
            throw Self.failure("\"\(search.query)\" is not in the cache of \(store.path) for \(configuration.endpointKey); "
                + "run it without --offline")
        }
        let candidates = result.candidates
        switch format {
        case .json:
            Console.printVerbatim(try PrettyJSON.string(candidates))
        case .table:
            guard !candidates.isEmpty else { break }
            Console.print(Self.table(candidates))
        case .level1:
            guard !candidates.isEmpty else { break }
            let index = (pick ?? 1) - 1
            guard index < candidates.count else {
                throw Self.failure("--pick \(index + 1): Nominatim gave only \(counted(candidates.count, "candidate"))")
            }
            let draft = try Level1EntryDraft(candidate: candidates[index], type: type ?? .club, fullName: name, nickName: nickname)
            Console.printVerbatim(try draft.checkedJSON())
        }
        let source = result.fromCache ? "from the cache (asked \(RFC3339.string(result.fetchedAt)))" : "from \(configuration.endpointKey)"
        if candidates.isEmpty {
            throw Self.failure("Nominatim found no place for \"\(search.query)\" (\(source)).")
        }
        if format != .json {
            Console.note("\(counted(candidates.count, "candidate")) \(source). Data © OpenStreetMap contributors, ODbL 1.0.")
        }
    }

    /// A failure of the search (exit status 1), reported as every command's errors are.
    struct Failure: LocalizedError {
        var message: String
        var errorDescription: String? { message }
    }

    static func failure(_ message: String) -> Failure { Failure(message: message) }

    /// One row per candidate, best first, numbered as --pick counts them.
    static func table(_ candidates: [PlaceCandidate]) -> String {
        var table = TextTable(headers: ["#", "Name", "Kind", "Town", "Country", "Latitude", "Longitude", "OSM", "Website / Wikipedia"],
                              alignments: [.right, .left, .left, .left, .left, .right, .right, .left, .left])
        for (index, candidate) in candidates.enumerated() {
            let osm = [candidate.osmType, candidate.osmID.map(String.init)].compactMap { $0 }.joined(separator: " ")
            let links = [candidate.website, candidate.wikipedia].compactMap { $0 }.joined(separator: "\n")
            table.append([String(index + 1), candidate.name, candidate.kind, candidate.town ?? "", candidate.country ?? "",
                          NominatimClient.format(candidate.coordinates.latitude), NominatimClient.format(candidate.coordinates.longitude),
                          osm, links])
        }
        return table.render()
    }
}
