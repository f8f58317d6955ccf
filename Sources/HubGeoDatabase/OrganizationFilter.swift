import HubGeoModel


/// Narrows a query: one organization type, and a page of the results; and, optionally, the
/// cached localized places to show with them.
public struct OrganizationFilter: Sendable, Equatable {
    /// Only clubs or only museums; nil for both.
    public var type: OrganizationType?
    /// At most this many results; 0 returns none, nil all.
    public var limit: Int?
    /// Skip this many results first.
    public var offset: Int
    /// When set, each result carries the localized town and country cached for its coordinates in
    /// this language, from this endpoint at this zoom (``PlaceMatch/localized``; the Level 1 town
    /// where the answer has no town); nothing is ever fetched.
    public var localization: LocalizationSource?

    /// A filter of `type`, a page of `limit` results from `offset`, with the cached places of `localization`.
    public init(type: OrganizationType? = nil, limit: Int? = nil, offset: Int = 0, localization: LocalizationSource? = nil) {
        self.type = type
        self.limit = limit
        self.offset = offset
        self.localization = localization
    }

    /// The language of ``localization``.
    public var language: String? { localization?.language }
}
