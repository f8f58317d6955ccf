import GRDB

/// Reference answers by a full scan of the table, without the spatial index: the baseline that
/// `make bench` measures the indexed queries against, and a check of their results. Slow on
/// purpose (the exact distance of every row); not for ordinary use.
extension OrganizationStore {
    /// The stable ids of the organizations within `radiusMeters` (ellipsoidal distance) of `center`.
    public func scanNear(_ center: GeoPoint, radiusMeters: Double) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT stable_id FROM organization NOT INDEXED
                WHERE ST_Distance(geom, MakePoint(?, ?, 4326), 1) <= ? ORDER BY stable_id
                """, arguments: [center.longitude, center.latitude, radiusMeters])
        }
    }

    /// The stable ids of the organizations inside a box; `west > east` crosses the antimeridian.
    public func scanWithin(west: Double, south: Double, east: Double, north: Double) throws -> [String] {
        try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT stable_id FROM organization NOT INDEXED
                WHERE latitude BETWEEN ? AND ?
                  AND (CASE WHEN ? <= ? THEN longitude BETWEEN ? AND ? ELSE longitude >= ? OR longitude <= ? END)
                ORDER BY stable_id
                """, arguments: [south, north, west, east, west, east, west, east])
        }
    }
}
