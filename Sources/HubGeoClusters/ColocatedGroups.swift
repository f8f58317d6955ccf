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

    /// Groups the organizations, refusing coordinates out of range and more organizations than
    /// an index holds.
    init(_ organizations: UnsafeBufferPointer<ClusterIndex.Organization>) throws(ClusterIndexError) {
        let n = organizations.count
        guard n <= ClusterIndex.maximumOrganizationCount else { throw .tooManyOrganizations(n) }
        for (index, organization) in organizations.enumerated() {
            guard organization.latitude >= -90, organization.latitude <= 90,
                  organization.longitude >= -180, organization.longitude <= 180 else {
                throw .invalidCoordinate(index: index, latitude: organization.latitude, longitude: organization.longitude)
            }
        }
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
        for (organization, coordinates) in organizations.enumerated() {
            // Adding 0 turns -0 into +0, so that both find the same slot.
            let px = WebMercator.x(longitude: coordinates.longitude) + 0
            let py = WebMercator.y(latitude: coordinates.latitude) + 0
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
