/// What makes an organization unique in Photo Club Hub: its town plus its full name.
public struct OrganizationIdentity: Hashable, Sendable, Codable, Comparable {
    /// The town, as the Level 1 data gives it.
    public var town: String
    /// The full name.
    public var fullName: String

    /// The identity of `fullName` in `town`.
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

    /// Orders by full name, then town.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.fullName, lhs.town) < (rhs.fullName, rhs.town)
    }
}

extension OrganizationIdentity: CustomStringConvertible {
    /// "Fotogroep Waalre (Waalre)".
    public var description: String { "\(fullName) (\(town))" }
}
