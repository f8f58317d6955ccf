import ArgumentParser
import Foundation
import HubGeo

/// Which Nominatim server to ask and how to identify to it. Flags win over the environment
/// (`HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`, `HUBGEO_REQUEST_INTERVAL`,
/// `HUBGEO_NOMINATIM_ZOOM`), which wins over the config file.
struct NominatimOptions: ParsableArguments {
    @Option(name: .customLong("nominatim-url"), help: ArgumentHelp(
        "Nominatim server base URL.", discussion: "Default: $HUBGEO_NOMINATIM_URL, the config file, else https://nominatim.openstreetmap.org.",
        valueName: "url"))
    var endpoint: String?

    @Option(help: ArgumentHelp("Your contact (URL or e-mail), sent in the User-Agent. Default: $HUBGEO_CONTACT.", valueName: "contact"))
    var contact: String?

    @Option(help: ArgumentHelp("Sent as Nominatim's email= parameter. Default: $HUBGEO_NOMINATIM_EMAIL.", valueName: "address"))
    var email: String?

    @Option(name: .customLong("request-interval"), help: ArgumentHelp(
        "Least seconds between requests, 0 to 3600 (at least 1 for the public server). Default: $HUBGEO_REQUEST_INTERVAL, else 1.",
        valueName: "seconds"))
    var requestInterval: Double?

    @Option(help: ArgumentHelp("Nominatim zoom, 0-18 (default 14: villages, not their municipality).", valueName: "level"))
    var zoom: Int?

    func validate() throws {
        if let requestInterval, !(0...NominatimConfiguration.maximumInterval).contains(requestInterval) {
            throw ValidationError("--request-interval must be 0 to \(Int(NominatimConfiguration.maximumInterval)) seconds")
        }
        if let zoom, !(0...18).contains(zoom) { throw ValidationError("--zoom must be 0-18") }
    }

    func configuration() throws -> NominatimConfiguration {
        try NominatimConfiguration.resolve(flags: .init(endpoint: endpoint, contact: contact, email: email,
                                                        requestInterval: requestInterval, zoom: zoom))
    }
}

/// Language codes from the command line: "en,nl" → ["en", "nl"], lower-cased, checked.
enum LanguageList {
    static func parse(_ text: String) throws -> [String] {
        var languages: [String] = []
        for part in text.split(separator: ",") {
            let language = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard isValid(language) else {
                throw ValidationError("\"\(part)\" is not a language code (like en, nl, de or pt-br)")
            }
            if !languages.contains(language) { languages.append(language) }
        }
        guard !languages.isEmpty else { throw ValidationError("give at least one language, like --lang en,nl") }
        return languages
    }

    static func isValid(_ language: String) -> Bool {
        let parts = language.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

/// `--lang xx` for the query commands: show the cached localized town and country.
struct LanguageOption: ParsableArguments {
    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Show the town and country in this language when cached by `hubgeo localize` (never fetches).", valueName: "code"))
    var language: String?

    func validate() throws {
        if let language, !LanguageList.isValid(language.lowercased()) {
            throw ValidationError("\"\(language)\" is not a language code (like en, nl or de)")
        }
    }

    /// The language, lower-cased.
    var code: String? { language?.lowercased() }

    /// The endpoint whose answers win, from the environment and config (errors ignored: display only).
    var preferredEndpoint: String? {
        (try? NominatimConfiguration.resolve())?.endpointKey
    }
}
