/// A photo club or photo museum: its Level 1 record with its Level 2 overrides applied.
public struct Organization: Hashable, Sendable, Codable {
    /// Club or museum.
    public var type: OrganizationType
    /// Town and full name: what the organization is known by.
    public var identity: OrganizationIdentity
    /// The short name.
    public var nickName: String
    /// Where it is.
    public var coordinates: GeoPoint
    /// Its website.
    public var website: String?
    /// Its Wikipedia page.
    public var wikipedia: String?
    /// The URL of its Level 2 file, as the Level 1 file gives it.
    public var level2URL: String?
    /// The e-mail address of whoever maintains its data.
    public var maintainerEmail: String?
    /// Its member number of the Dutch Fotobond, for clubs that have one.
    public var fotobondNumber: Int?
    /// Remarks, one per language, sorted by language code.
    public var remarks: [LocalizedRemark]
    /// Members from the Level 2 file (empty when the club has none or for museums).
    public var members: [Member]
    /// The number of current members, known only for clubs that have a Level 2 file.
    public var memberCount: Int?
    /// True when a Level 2 file was merged into this record.
    public var hasLevel2: Bool
    /// What the Level 2 file changed.
    public var overrides: [FieldOverride]
    /// The Level 1 file that declared the organization.
    public var level1Source: String
    /// The Level 2 file merged into it, if any.
    public var level2Source: String?

    /// An organization with these values.
    public init(type: OrganizationType, identity: OrganizationIdentity, nickName: String, coordinates: GeoPoint,
                website: String? = nil, wikipedia: String? = nil, level2URL: String? = nil,
                maintainerEmail: String? = nil, fotobondNumber: Int? = nil, remarks: [LocalizedRemark] = [],
                members: [Member] = [], memberCount: Int? = nil, hasLevel2: Bool = false, overrides: [FieldOverride] = [],
                level1Source: String, level2Source: String? = nil) {
        self.type = type
        self.identity = identity
        self.nickName = nickName
        self.coordinates = coordinates
        self.website = website
        self.wikipedia = wikipedia
        self.level2URL = level2URL
        self.maintainerEmail = maintainerEmail
        self.fotobondNumber = fotobondNumber
        self.remarks = remarks
        self.members = members
        self.memberCount = memberCount
        self.hasLevel2 = hasLevel2
        self.overrides = overrides
        self.level1Source = level1Source
        self.level2Source = level2Source
    }

    /// The town (``OrganizationIdentity/town``).
    public var town: String { identity.town }
    /// The full name (``OrganizationIdentity/fullName``).
    public var fullName: String { identity.fullName }
    /// The stable id of the identity (``OrganizationIdentity/stableID``).
    public var stableID: String { identity.stableID }

}
