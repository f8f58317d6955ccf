/// Why a cluster index could not be built, loaded or asked.
public enum ClusterIndexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An organization's latitude is not in [-90, 90] or its longitude not in [-180, 180]
    /// (or one is not finite); `index` is its position in the input.
    case invalidCoordinate(index: Int, latitude: Double, longitude: Double)
    /// More organizations than the index's 32-bit node numbers can hold.
    case tooManyOrganizations(Int)
    /// A parameter out of its range, named with the reason.
    case invalidOption(String)
    /// No cluster, organization or co-located group has this id in this index.
    case unknownID(Int)
    /// A serialized index that is not one, is damaged, or is of another format version.
    case invalidSerialization(String)

    /// The error in words.
    public var description: String {
        switch self {
        case let .invalidCoordinate(index, latitude, longitude):
            "organization \(index): coordinates (\(latitude), \(longitude)) are not a latitude in [-90, 90] and a longitude in [-180, 180]"
        case let .tooManyOrganizations(count):
            "\(count) organizations are more than a cluster index holds (\(ClusterIndex.maximumOrganizationCount))"
        case let .invalidOption(reason):
            "invalid cluster option: \(reason)"
        case let .unknownID(id):
            "no cluster or organization with id \(id)"
        case let .invalidSerialization(reason):
            "not a usable serialized cluster index: \(reason)"
        }
    }
}
