/// The input organizations, copied and checked.
final class OrganizationTable {
    let count: Int
    let ids: UnsafeMutableBufferPointer<Int64>
    let latitudes: UnsafeMutableBufferPointer<Double>
    let longitudes: UnsafeMutableBufferPointer<Double>

    init(_ organizations: some Sequence<ClusterIndex.Organization>) throws(ClusterIndexError) {
        var capacity = max(16, organizations.underestimatedCount)
        var ids = allocateBuffer(capacity, repeating: Int64(0))
        var latitudes = allocateBuffer(capacity, repeating: 0.0)
        var longitudes = allocateBuffer(capacity, repeating: 0.0)
        var count = 0
        var failure: ClusterIndexError?
        for organization in organizations {
            guard organization.latitude >= -90, organization.latitude <= 90,
                  organization.longitude >= -180, organization.longitude <= 180 else {
                failure = .invalidCoordinate(
                    index: count, latitude: organization.latitude, longitude: organization.longitude)
                break
            }
            guard count < ClusterIndex.maximumOrganizationCount else {
                failure = .tooManyOrganizations(count + 1)
                break
            }
            if count == capacity {
                capacity *= 2
                ids = Self.grow(ids, to: capacity)
                latitudes = Self.grow(latitudes, to: capacity)
                longitudes = Self.grow(longitudes, to: capacity)
            }
            ids[count] = organization.id
            latitudes[count] = organization.latitude
            longitudes[count] = organization.longitude
            count += 1
        }
        self.count = count
        self.ids = ids
        self.latitudes = latitudes
        self.longitudes = longitudes
        if let failure { throw failure }
    }

    private static func grow<T>(_ buffer: UnsafeMutableBufferPointer<T>, to capacity: Int) -> UnsafeMutableBufferPointer<T> {
        let grown = UnsafeMutableBufferPointer<T>.allocate(capacity: capacity)
        _ = grown.moveInitialize(fromContentsOf: buffer)
        buffer.deallocate()
        return grown
    }

    deinit {
        ids.deallocate(); latitudes.deallocate(); longitudes.deallocate()
    }
}

/// The locations: organizations grouped by equal Web Mercator coordinates (equal latitude and
/// longitude, and also latitudes beyond ±85.0511° at one longitude, which the map draws at one
/// point). Groups are numbered in the input order of their first organization (the level order
/// of the clustering); a group's organizations keep their input order.
final class ColocatedGroups {
    let organizationCount: Int
    let count: Int
    /// Per group, its Web Mercator position.
    let x: UnsafeMutableBufferPointer<Double>
    let y: UnsafeMutableBufferPointer<Double>
    /// Group g holds members[starts[g]..<starts[g + 1]] (input positions), count + 1 entries.
    let starts: UnsafeMutableBufferPointer<Int32>
    let members: UnsafeMutableBufferPointer<Int32>

    init(_ input: OrganizationTable) {
        let n = input.count
        organizationCount = n
        x = allocateBuffer(n, repeating: 0)
        y = allocateBuffer(n, repeating: 0)
        let groupOf = allocateBuffer(n, repeating: Int32(0))
        defer { groupOf.deallocate() }

        // Open addressing on the bit patterns of the projected coordinates.
        var capacity = 16
        while capacity < 2 * n { capacity *= 2 }
        let table = allocateBuffer(capacity, repeating: Int32(-1))
        defer { table.deallocate() }
        let mask = capacity - 1
        var groups = 0
        for organization in 0..<n {
            // Adding 0 turns -0 into +0, so that both find the same slot.
            let px = WebMercator.x(longitude: input.longitudes[organization]) + 0
            let py = WebMercator.y(latitude: input.latitudes[organization]) + 0
            var hash = px.bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ py.bitPattern
            hash ^= hash >> 31
            hash &*= 0xD6E8_FEB8_6659_FD93
            hash ^= hash >> 32
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let group = Int(table[slot])
                if group < 0 {
                    table[slot] = Int32(groups)
                    x[groups] = px
                    y[groups] = py
                    groupOf[organization] = Int32(groups)
                    groups += 1
                    break
                }
                if x[group] == px && y[group] == py {
                    groupOf[organization] = Int32(group)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        count = groups

        starts = allocateBuffer(groups + 1, repeating: Int32(0))
        for organization in 0..<n { starts[Int(groupOf[organization]) + 1] += 1 }
        for group in 0..<groups { starts[group + 1] += starts[group] }
        members = allocateBuffer(n, repeating: Int32(0))
        let fill = allocateBuffer(groups, repeating: Int32(0))
        defer { fill.deallocate() }
        _ = fill.update(from: starts[0..<groups])
        for organization in 0..<n {
            let group = Int(groupOf[organization])
            members[Int(fill[group])] = Int32(organization)
            fill[group] += 1
        }
    }

    deinit {
        x.deallocate(); y.deallocate(); starts.deallocate(); members.deallocate()
    }
}
