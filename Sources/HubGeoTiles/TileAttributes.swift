import HubGeoClusters

/// What a vector tile says of organizations besides their place, supplied by the caller (the
/// database's rows): the properties of an organization alone at its location, and those of a
/// co-located group (organizations at exactly the same coordinates).
public protocol TileAttributes {
    /// The properties of the organization with this id (an id of the cluster index); nil when
    /// there is none, and the feature carries only its kind.
    func organization(_ id: Int64) throws -> [TileProperty]?
    /// The properties of a co-located group of these organizations, besides those the tile gives
    /// every group (kind, id, count, clubs, museums).
    func group(_ ids: ClusterIndex.OrganizationIDs) throws -> [TileProperty]
}
