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
    public var stableID: String {
        let hex = String(stableHash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// ``stableID`` as a number.
    var stableHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in town.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
        for byte in fullName.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.fullName, lhs.town) < (rhs.fullName, rhs.town)
    }
}

extension OrganizationIdentity: CustomStringConvertible {
    /// "Fotogroep Waalre (Waalre)".
    public var description: String { "\(fullName) (\(town))" }
}
