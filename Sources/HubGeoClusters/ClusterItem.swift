extension ClusterIndex {
    /// An organization as the index takes it: an id of the caller's choosing (a row id, say)
    /// and its coordinates in degrees.
    public struct Organization: Sendable, Equatable {
        /// The caller's id of the organization (a row id, say).
        public var id: Int64
        /// The latitude in degrees.
        public var latitude: Double
        /// The longitude in degrees.
        public var longitude: Double

        /// An organization with the caller's `id` at `latitude` and `longitude` (degrees).
        public init(id: Int64, latitude: Double, longitude: Double) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// What an item on the map is.
    public enum Kind: Sendable, Equatable {
        /// Several locations drawn as one marker with a count; it splits at its expansion zoom.
        case cluster
        /// One organization alone at its coordinates.
        case organization
        /// Several organizations at exactly the same coordinates (one building): they never
        /// split, the page lists them.
        case colocatedGroup
    }

    /// A box in degrees, edges inclusive. The boxes of clusters are stored in single precision
    /// rounded outwards, so they hold every member but may be up to a couple of metres larger.
    public struct Bounds: Sendable, Equatable {
        /// The southern edge, in degrees of latitude.
        public var south: Double
        /// The western edge, in degrees of longitude.
        public var west: Double
        /// The northern edge, in degrees of latitude.
        public var north: Double
        /// The eastern edge, in degrees of longitude.
        public var east: Double

        /// A box with these edges, in degrees.
        public init(south: Double, west: Double, north: Double, east: Double) {
            self.south = south
            self.west = west
            self.north = north
            self.east = east
        }

        /// True when the coordinates lie inside the box or on its edges.
        public func contains(latitude: Double, longitude: Double) -> Bool {
            latitude >= south && latitude <= north && longitude >= west && longitude <= east
        }
    }

    /// One marker of a view: a cluster, or a location (an organization or a co-located group).
    public struct Item: Sendable, Equatable {
        /// The stable id of the item in this index (the same at every zoom it is shown at, after
        /// serialization, and in every build from the same organizations), for ``ClusterIndex/children(of:)``, ``ClusterIndex/leaves(of:limit:offset:)``
        /// and ``ClusterIndex/expansionZoom(of:)``.
        public let id: Int
        /// Whether the marker is a cluster, an organization alone or a co-located group.
        public let kind: Kind
        /// Where the marker stands: a location's own coordinates (those of its first
        /// organization in input order), a cluster's centre weighted by the members' counts.
        public let latitude: Double
        /// The longitude of the marker (see ``latitude``).
        public let longitude: Double
        /// The number of organizations in it.
        public let count: Int
        /// The box of all its organizations' coordinates.
        public let bounds: Bounds
        /// For a cluster, the zoom at which it splits into two or more items; nil for a location.
        public let expansionZoom: Int?
        /// For a location, the ids of its organizations, in input order; empty for a cluster
        /// (ask ``ClusterIndex/leaves(of:limit:offset:)``).
        public let organizationIDs: OrganizationIDs
        /// The zooms at which this item is shown (clamped views above the separation zoom
        /// show the items of the separation zoom).
        public let zooms: ClosedRange<Int>
        /// The position in Web Mercator units, as the index compares it with a view.
        let x: Double
        let y: Double
    }

    /// The organization ids of a location, read from the index without copying.
    public struct OrganizationIDs: RandomAccessCollection, Sendable, Equatable {
        let storage: ClusterStorage?
        let range: Range<Int>

        /// The first position: 0.
        public var startIndex: Int { 0 }
        /// The position past the last id: the number of ids.
        public var endIndex: Int { range.count }
        /// The caller's id of the organization at `position`.
        public subscript(position: Int) -> Int64 {
            precondition(position >= 0 && position < range.count, "OrganizationIDs index out of range")
            return storage!.organizationIDs[range.lowerBound + position]
        }

        /// True when both hold the same ids in the same order.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.elementsEqual(rhs)
        }
    }
}
