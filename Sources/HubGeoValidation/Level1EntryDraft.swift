import Foundation
import HubGeoGeocoding
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// A Level 1 entry for a place that `hubgeo locate` found: `idPlus` (the town by `localize`'s
/// rule, the full name, the nickname), `coordinates` rounded to ``coordinateDecimals`` decimals,
/// and `optional.website` / `optional.wikipedia` when OpenStreetMap has them. ``checkedJSON(indent:)``
/// writes it as Photo Club Hub's files do and checks it first, inside a Level 1 document, with
/// the checks of `hubgeo validate` (``Validator/validate(data:name:catalog:)``: the schema and
/// the Level 1 reader).
public struct Level1EntryDraft: Sendable, Equatable {
    /// Decimals kept of each coordinate: 5 is about a metre, finer than a building and what most
    /// entries of Photo Club Hub's files carry.
    public static let coordinateDecimals = 5
    /// A nickname made from a name without a known prefix keeps whole words up to this many characters.
    public static let nickNameLength = 24

    /// A club or a museum (the Level 1 array it belongs in).
    public var type: OrganizationType
    /// `idPlus.town`.
    public var town: String
    /// `idPlus.fullName`.
    public var fullName: String
    /// `idPlus.nickName`.
    public var nickName: String
    /// `coordinates`, rounded.
    public var coordinates: GeoPoint
    /// `optional.website`: the place's http(s) `website` tag.
    public var website: String?
    /// `optional.wikipedia`: the article's URL, from the place's `wikipedia` tag (`nl:Title`).
    public var wikipedia: String?

    /// Why no entry can be made, or why it does not pass the checks.
    public struct Problem: Error, Equatable, LocalizedError {
        /// The reason, for people.
        public var message: String
        /// The checks' findings, when the entry did not pass them.
        public var diagnostics: [Diagnostic]

        /// The reason, with the findings.
        public var errorDescription: String? {
            ([message] + diagnostics.map { "  \($0.rule.rawValue) at \($0.jsonPath): \($0.message)" }).joined(separator: "\n")
        }
    }

    /// The entry for `candidate` as a `type`; `fullName` nil: the place's name; `nickName` nil:
    /// made from the full name (``nickName(for:)``). Throws ``Problem`` when the place has no town.
    public init(candidate: PlaceCandidate, type: OrganizationType, fullName: String? = nil, nickName: String? = nil) throws(Problem) {
        guard let town = candidate.town else {
            throw Problem(message: "Nominatim's address for \"\(candidate.name)\" (\(candidate.kind)) names no town "
                + "(city, town, village, municipality, hamlet or suburb); search for the place itself, or its town", diagnostics: [])
        }
        let name = fullName ?? candidate.name
        self.type = type
        self.town = town
        self.fullName = name
        self.nickName = nickName ?? Self.nickName(for: name)
        let scale = pow(10, Double(Self.coordinateDecimals))
        coordinates = GeoPoint(latitude: (candidate.coordinates.latitude * scale).rounded() / scale,
                               longitude: (candidate.coordinates.longitude * scale).rounded() / scale)
        website = candidate.website.flatMap(Self.webURL)
        wikipedia = candidate.wikipedia.flatMap(Self.wikipediaURL)
    }

    // MARK: - Names

    /// The first words of club names in Photo Club Hub's files and the prefixes their nicknames
    /// start with: "Fotogroep Meppel e.o." is `fgMeppel`, "FotoWerkgroep IVN-Best" `fwIVNBest`.
    static let clubPrefixes = ["fotoclub": "fc", "fotocollectief": "fc", "fotogroep": "fg", "fotokring": "fk",
                               "fotowerkgroep": "fw", "fotografenvereniging": "fv"]

    /// A nickname as Photo Club Hub's files make them: a club word's prefix and the other words
    /// run together without punctuation ("Fotokring Beeldhoek" is `fkBeeldhoek`; a word with a
    /// full stop, like "e.o.", is left out); any other name's whole words within ``nickNameLength`` characters.
    public static func nickName(for name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        if words.count > 1, let prefix = clubPrefixes[words[0].lowercased()] {
            let rest = words.dropFirst().filter { !$0.contains(".") }
                .map { String($0.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init)) }
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            if !rest.isEmpty { return prefix + rest }
        }
        var nick = ""
        for word in words {
            let next = nick.isEmpty ? word : nick + " " + word
            if next.count > nickNameLength, !nick.isEmpty { break }
            nick = next
        }
        return nick
    }

    /// `text` when it is an http(s) URL with a host, else nil.
    static func webURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else { return nil }
        return trimmed
    }

    /// The article's URL for OpenStreetMap's `wikipedia` tag: `nl:Museum Klok & Peel` is
    /// `https://nl.wikipedia.org/wiki/Museum_Klok_&_Peel` (a `#section` stays the fragment); a tag that is already an http(s) URL is
    /// kept; anything else (no language, no title) gives nil.
    static func wikipediaURL(_ tag: String) -> String? {
        if let url = webURL(tag) { return url }
        guard let colon = tag.firstIndex(of: ":") else { return nil }
        let language = tag[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let title = tag[tag.index(after: colon)...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
        guard (2...12).contains(language.count), language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }), !title.isEmpty,
              let path = title.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "#")).subtracting(CharacterSet(charactersIn: "?")))
        else { return nil }
        return "https://\(language).wikipedia.org/wiki/\(path)"
    }

    // MARK: - JSON

    /// The entry as Photo Club Hub's files write one (their member order, four spaces a level),
    /// its strings escaped by `JSONString`; `indent` spaces before every line.
    public func json(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        func quoted(_ text: String) -> String { JSONString.quoted(text) }
        var lines = ["{",
                     "    \"idPlus\": {",
                     "        \"town\": \(quoted(town)),",
                     "        \"fullName\": \(quoted(fullName)),",
                     "        \"nickName\": \(quoted(nickName))",
                     "    },",
                     "    \"coordinates\": {",
                     "        \"latitude\": \(Self.number(coordinates.latitude)),",
                     "        \"longitude\": \(Self.number(coordinates.longitude))",
                     "    }" + (website == nil && wikipedia == nil ? "" : ",")]
        if website != nil || wikipedia != nil {
            let optional = [website.map { "        \"website\": \(quoted($0))" }, wikipedia.map { "        \"wikipedia\": \(quoted($0))" }]
                .compactMap { $0 }
            lines.append("    \"optional\": {")
            lines.append(optional.joined(separator: ",\n"))
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { pad + $0 }.joined(separator: "\n")
    }

    /// ``json(indent:)`` once a Level 1 document holding only this entry passes `hubgeo validate`'s
    /// checks with no error; else ``Problem`` with the errors (warnings do not stop it).
    public func checkedJSON(indent: Int = 0) throws(Problem) -> String {
        let entry = json(indent: indent)
        let document = "{\n    \"\(type.level1ArrayName)\": [\n\(json(indent: 8))\n    ]\n}\n"
        let errors = Validator(reader: DocumentReader(remoteFetch: nil)).validate(data: Data(document.utf8), name: "locate.level1.json")
            .filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw Problem(message: "the Level 1 entry for \"\(fullName)\" does not pass hubgeo's Level 1 checks", diagnostics: errors)
        }
        return entry
    }

    /// Degrees with at most ``coordinateDecimals`` decimals, no exponent, no trailing zeros.
    static func number(_ degrees: Double) -> String {
        DegreesText.string(degrees, decimals: coordinateDecimals)
    }
}
