/// A club member as listed in the club's Level 2 file (Level 3 details are out of scope).
public struct Member: Hashable, Sendable, Codable {
    public var givenName: String
    public var infixName: String
    public var familyName: String
    public var isFormerMember: Bool
    public var isDeceased: Bool
    public var isProspectiveMember: Bool
    public var isHonoraryMember: Bool

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
