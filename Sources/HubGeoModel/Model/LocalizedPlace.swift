/// An organization's town and country in one language, derived from its coordinates
/// by reverse geocoding (Nominatim), as far as it is known.
public struct LocalizedPlace: Hashable, Sendable, Codable {
    /// Where a localized town came from.
    public enum TownSource: String, Hashable, Sendable, Codable {
        /// The town Nominatim answered for the point, in the language asked.
        case nominatim
        /// The organization's Level 1 town: Nominatim answered with no town for the point (a
        /// country only, or "Unable to geocode"), so the town stays the Level 1 one, as the Photo
        /// Club Hub app shows it.
        case level1
    }

    /// ISO 639-1 language code, lower case ("en", "nl").
    public var language: String
    /// The locality the point lies in, in that language; nil when none is known.
    public var town: String?
    /// The country, in that language; nil when none is known.
    public var country: String?
    /// Where `town` came from; nil when there is no town.
    public var townSource: TownSource?

    /// A place; `townSource` defaults to ``TownSource/nominatim`` when there is a town.
    public init(language: String, town: String?, country: String?, townSource: TownSource? = nil) {
        self.language = language
        self.town = town
        self.country = country
        self.townSource = town == nil ? nil : townSource ?? .nominatim
    }

    /// The place a query shows for an organization whose Level 1 town is `level1Town`, from a
    /// cached answer: its town when it has one, else the Level 1 town (``TownSource/level1``);
    /// the country as answered (none after "Unable to geocode").
    package static func shown(language: String, answeredTown: String?, country: String?, level1Town: String) -> LocalizedPlace {
        let (town, source) = townShown(answered: answeredTown ?? "", level1: level1Town)
        return LocalizedPlace(language: language, town: town, country: country, townSource: source)
    }

    /// The town shown for a point: the answered one when it is not empty, else the Level 1 town.
    /// Generic, so that the export can apply the same rule to the bytes of its rows.
    @inlinable
    package static func townShown<Text: Collection>(answered: Text, level1: Text) -> (town: Text, source: TownSource) {
        answered.isEmpty ? (level1, .level1) : (answered, .nominatim)
    }
}
