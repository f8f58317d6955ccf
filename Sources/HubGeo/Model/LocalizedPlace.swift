/// An organization's town and country in one language, derived from its coordinates
/// by reverse geocoding (Nominatim), as far as it is known.
public struct LocalizedPlace: Hashable, Sendable, Codable {
    /// ISO 639-1 language code, lower case ("en", "nl").
    public var language: String
    /// The locality the point lies in, in that language; nil when none is known.
    public var town: String?
    /// The country, in that language; nil when none is known.
    public var country: String?

    public init(language: String, town: String?, country: String?) {
        self.language = language
        self.town = town
        self.country = country
    }
}
