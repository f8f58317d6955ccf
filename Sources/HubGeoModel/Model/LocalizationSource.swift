/// Which cached reverse-geocoding answers a query shows: those in one language from one
/// Nominatim endpoint at one zoom, the settings `hubgeo localize` asked with. Answers cached at
/// another zoom or from another endpoint are never mixed in (a zoom-18 answer may name another
/// place than a zoom-14 one).
public struct LocalizationSource: Sendable, Hashable {
    /// The language, lower case ("en", "nl", "pt-br").
    public var language: String
    /// The endpoint as the cache keys it: the base URL without trailing slashes.
    public var endpoint: String
    /// The Nominatim zoom the answers were asked at.
    public var zoom: Int

    /// Answers in `language` from `endpoint` (a cache key, or any spelling of the base URL with
    /// trailing slashes) at `zoom`.
    public init(language: String, endpoint: String, zoom: Int) {
        self.language = language.lowercased()
        var key = endpoint
        while key.hasSuffix("/") { key.removeLast() }
        self.endpoint = key
        self.zoom = zoom
    }
}
