/// Coordinates that `validate --geocode` suggests for an organization whose coordinates look
/// wrong (`coordinates-zero`, `town-mismatch`, `town-nowhere`): the first place a Nominatim
/// search of its name and town (or its town alone) found, and how far it lies from the current pair.
public struct CoordinateSuggestion: Hashable, Sendable, Codable {
    /// The suggested latitude, in degrees.
    public var latitude: Double
    /// The suggested longitude, in degrees.
    public var longitude: Double
    /// The geodesic distance from the organization's current coordinates, in metres.
    public var distanceMeters: Double
    /// The search that found the place, as sent ("Fotokring Beeldhoek, Asten", or "Asten").
    public var query: String
    /// The place found: its name and kind ("Asten (village)").
    public var place: String
    /// The JSON path of the `coordinates` member the suggestion replaces.
    public var coordinatesPath: String
    /// Where that member starts (its key's opening quote) in its file, 1-based, once known;
    /// columns count characters (Unicode scalars), as every diagnostic's do.
    public var line: Int?
    /// The column where the member starts.
    public var column: Int?
    /// The line of the member's last character (its value's closing brace).
    public var endLine: Int?
    /// The column of the member's last character.
    public var endColumn: Int?

    /// A suggestion of `latitude`, `longitude` for the object at `coordinatesPath`.
    public init(latitude: Double, longitude: Double, distanceMeters: Double, query: String, place: String, coordinatesPath: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.distanceMeters = distanceMeters
        self.query = query
        self.place = place
        self.coordinatesPath = coordinatesPath
    }

    /// "51.4037, 5.7486 (Asten (village), found by searching "Asten"; 5,760.2 km from the current pair)".
    public var description: String {
        let kilometres = distanceMeters / 1000
        let distance = kilometres >= 10 ? "\(Int(kilometres.rounded())) km"
            : kilometres >= 1 ? "\((kilometres * 10).rounded() / 10) km" : "\(Int(distanceMeters.rounded())) m"
        return "\(Self.degrees(latitude)), \(Self.degrees(longitude)) (\(place), found by searching \"\(query)\"; "
            + "\(distance) from the current pair)"
    }

    /// A coordinate as a Level 1 file writes it: up to 5 decimals (about a metre).
    public static func degrees(_ value: Double) -> String {
        DegreesText.string(value, decimals: 5)
    }
}
