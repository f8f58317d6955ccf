/// Narrows a query: one organization type, and a page of the results.
public struct OrganizationFilter: Sendable, Equatable {
    public var type: OrganizationType?
    public var limit: Int?
    public var offset: Int

    public init(type: OrganizationType? = nil, limit: Int? = nil, offset: Int = 0) {
        self.type = type
        self.limit = limit
        self.offset = offset
    }
}
