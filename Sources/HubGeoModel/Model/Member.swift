/// A club member as listed in the club's Level 2 file (Level 3 details are out of scope).
public struct Member: Hashable, Sendable, Codable {
    /// The member's given name.
    public var givenName: String
    /// The infix of the family name (`van`, `de`, ...); empty when none.
    public var infixName: String
    /// The member's family name.
    public var familyName: String
    /// True for a former member.
    public var isFormerMember: Bool
    /// True for a member who has died.
    public var isDeceased: Bool
    /// True for a prospective member.
    public var isProspectiveMember: Bool
    /// True for an honorary member.
    public var isHonoraryMember: Bool

    /// A member with these names and roles.
    public init(givenName: String, infixName: String = "", familyName: String,
                isFormerMember: Bool = false, isDeceased: Bool = false,
                isProspectiveMember: Bool = false, isHonoraryMember: Bool = false) {
        self.givenName = givenName
        self.infixName = infixName
        self.familyName = familyName
        self.isFormerMember = isFormerMember
        self.isDeceased = isDeceased
        self.isProspectiveMember = isProspectiveMember
        self.isHonoraryMember = isHonoraryMember
    }

    /// "Bart van Stekelenburg".
    public var displayName: String {
        [givenName, infixName, familyName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A current member: not former, not deceased and not merely prospective.
    public var isCurrent: Bool { !isFormerMember && !isDeceased && !isProspectiveMember }
}
