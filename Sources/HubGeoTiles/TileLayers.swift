/// The layers of hubgeo's vector tiles and their fields, as TileJSON's `vector_layers` and the
/// MBTiles `json` metadata describe them.
public enum TileLayers {
    /// Clusters: several locations drawn as one marker, which split at `expansionZoom`.
    public static let clusters = "clusters"
    /// Organizations alone (`kind` "organization") and co-located groups (`kind` "colocated").
    public static let organizations = "organizations"

    /// One layer of `vector_layers`: its id, description and fields (name → type and meaning).
    public struct Description: Sendable {
        /// The layer's id.
        public var id: String
        /// What the layer holds.
        public var description: String
        /// The layer's fields and their types.
        public var fields: [(name: String, type: String)]
    }

    /// The layers, with the fields `localized` adds (``localizedFields``) when tiles carry a language.
    public static func descriptions(localized: Bool) -> [Description] {
        [
            Description(
                id: clusters,
                description: "Clusters of organizations: count, clubs and museums among them, the zoom at which the cluster "
                    + "splits, and the box of its organizations (west, south, east, north)",
                fields: [("id", "String"), ("count", "Number"), ("clubs", "Number"), ("museums", "Number"),
                         ("expansionZoom", "Number"), ("west", "Number"), ("south", "Number"), ("east", "Number"),
                         ("north", "Number")]),
            Description(
                id: organizations,
                description: "Organizations alone (kind organization) and organizations at exactly the same coordinates "
                    + "(kind colocated, with count, clubs, museums and their list as JSON text in organizations)",
                fields: [("kind", "String"), ("id", "String"), ("name", "String"), ("nickName", "String"), ("type", "String"),
                         ("town", "String")]
                    + (localized ? localizedFields : [])
                    + [("count", "Number"), ("clubs", "Number"), ("museums", "Number"), ("organizations", "String")]),
        ]
    }

    /// The localized town and country of an organization (with a language).
    public static let localizedFields = [("localizedTown", "String"), ("localizedCountry", "String")]
}
