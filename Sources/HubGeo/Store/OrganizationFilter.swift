/// Narrows a query: one organization type, and a page of the results.
public struct OrganizationFilter: Sendable, Equatable {
    public var type: OrganizationType?
    /// At most this many results; 0 returns none, nil all.
    public var limit: Int?
    /// Skip this many results first.
    public var offset: Int
    /// When set, each result carries its cached localized town and country in this language
    /// (``PlaceMatch/localized``); nothing is ever fetched.
    public var language: String?
    /// The endpoint whose cached answers win when several endpoints answered.
    public var preferredEndpoint: String?

    public init(type: OrganizationType? = nil, limit: Int? = nil, offset: Int = 0,
                language: String? = nil, preferredEndpoint: String? = nil) {
        self.type = type
        self.limit = limit
        self.offset = offset
        self.language = language
        self.preferredEndpoint = preferredEndpoint
    }
}
