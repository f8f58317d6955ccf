/// What kind of organization a record describes; Level 1 files keep them in separate arrays.
public enum OrganizationType: String, Sendable, Codable, CaseIterable, Comparable {
    /// A photo club.
    case club
    /// A photo museum.
    case museum

    /// The Level 1 array that holds organizations of this type.
    package var level1ArrayName: String {
        switch self {
        case .club: "clubs"
        case .museum: "museums"
        }
    }

    /// Orders by raw value: clubs before museums.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
