import ArgumentParser
import Foundation
import HubGeo

/// Which Nominatim server to ask and how to identify to it. Flags win over the environment
/// (`HUBGEO_NOMINATIM_URL`, `HUBGEO_CONTACT`, `HUBGEO_NOMINATIM_EMAIL`, `HUBGEO_REQUEST_INTERVAL`),
/// which wins over the config file. The zoom of reverse lookups is ``ZoomOption``, only in the
/// commands that make them (`locate` searches by name and has none).
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

    func validate() throws {
        if let requestInterval, !(0...NominatimConfiguration.maximumInterval).contains(requestInterval) {
            throw ValidationError("--request-interval must be 0 to \(Int(NominatimConfiguration.maximumInterval)) seconds")
        }
        do throws(SettingError) {
            if let contact { _ = try SettingValue(contact, from: .flag("--contact")).headerText() }
            if let email { _ = try SettingValue(email, from: .flag("--email")).headerText() }
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The settings from the flags, the environment and the config file; `zoom` is ``ZoomOption``'s
    /// flag for the commands that make reverse lookups (else the environment's, the file's or 14).
    func configuration(zoom: ZoomOption? = nil) throws -> NominatimConfiguration {
        try NominatimConfiguration.resolve(flags: .init(endpoint: endpoint, contact: contact, email: email,
                                                        requestInterval: requestInterval, zoom: zoom?.zoom))
    }
}

/// `--zoom` of the commands that reverse geocode (`localize`, `geocode`, `validate --geocode`):
/// flags win over `HUBGEO_NOMINATIM_ZOOM`, which wins over the config file.
struct ZoomOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Nominatim zoom, 0-18. Default: $HUBGEO_NOMINATIM_ZOOM, the config file, else 14 (villages, not their municipality).",
        valueName: "level"))
    var zoom: Int?

    func validate() throws {
        if let zoom, !(0...18).contains(zoom) { throw ValidationError("--zoom must be 0-18") }
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

/// `--lang xx` for the query commands: show the cached localized town and country, as
/// `hubgeo localize` cached them with the endpoint and zoom it would use now.
struct LanguageOption: ParsableArguments {
    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Show the town and country in this language, as `hubgeo localize` cached them (never fetches).",
        discussion: """
            Only the answers of the Nominatim endpoint and zoom that localize would use: --nominatim-url and --zoom, \
            else $HUBGEO_NOMINATIM_URL and $HUBGEO_NOMINATIM_ZOOM, else the config file, else the public server at \
            zoom 14. Where Nominatim has no town for the point, the Level 1 town (source level1, marked * in tables).
            """,
        valueName: "code"))
    var language: String?

    @Option(name: .customLong("nominatim-url"), help: ArgumentHelp(
        "With --lang: show the answers cached from this Nominatim endpoint (default as for localize).", valueName: "url"))
    var endpoint: String?

    @Option(help: ArgumentHelp("With --lang: show the answers cached at this zoom, 0-18 (default as for localize: 14).",
                               valueName: "level"))
    var zoom: Int?

    func validate() throws {
        if let language, !LanguageList.isValid(language.lowercased()) {
            throw ValidationError("\"\(language)\" is not a language code (like en, nl or de)")
        }
        if language == nil {
            if endpoint != nil { throw ValidationError("--nominatim-url goes with --lang") }
            if zoom != nil { throw ValidationError("--zoom goes with --lang") }
        }
        if let zoom, !(0...18).contains(zoom) { throw ValidationError("--zoom must be 0-18") }
    }

    /// The language, lower-cased.
    var code: String? { language?.lowercased() }

    /// The cached answers to show: in the language, from the endpoint and at the zoom `localize`
    /// would use (flags, environment, config file, defaults). Nil without --lang, and then no
    /// setting is read at all.
    func source() throws -> LocalizationSource? {
        guard let code else { return nil }
        let configuration = try NominatimConfiguration.resolve(flags: .init(endpoint: endpoint, zoom: zoom))
        return LocalizationSource(language: code, configuration: configuration)
    }
}
