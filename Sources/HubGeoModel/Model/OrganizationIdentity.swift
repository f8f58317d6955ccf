/// What makes an organization unique in Photo Club Hub: its town plus its full name.
public struct OrganizationIdentity: Hashable, Sendable, Codable, Comparable {
    public var town: String
    public var fullName: String

    public init(town: String, fullName: String) {
        self.town = town
        self.fullName = fullName
    }

    /// A stable identifier derived from the identity (FNV-1a 64 of town and full name),
    /// unchanged across imports: usable as a feature id in exports and as a database key.
    public var stableID: String { FNV1a.hex(stableHash) }

    /// ``stableID`` as a number.
    package var stableHash: UInt64 {
        var hash = FNV1a()
        hash.add(town.utf8)
        hash.add(0x1F)
        hash.add(fullName.utf8)
        return hash.value
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.fullName, lhs.town) < (rhs.fullName, rhs.town)
    }
}

extension OrganizationIdentity: CustomStringConvertible {
    /// "Fotogroep Waalre (Waalre)".
    public var description: String { "\(fullName) (\(town))" }
}
