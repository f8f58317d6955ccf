@testable import HubGeoClusters

/// supercluster's hierarchical greedy clustering written the plain way, to check the index
/// against: every level in full, from the cap down, each item of a level in turn looking for
/// untaken neighbours (in a grid of cells as wide as the clustering distance). Only the
/// projection is shared with the index.
struct ReferenceClustering {
    struct Item: Hashable {
        var x: Double
        var y: Double
        var count: Int
        /// Input positions of its organizations, sorted.
        var organizations: [Int]
    }

    /// levels[z] for z in 0...separationZoom.
    let levels: [[Item]]
    let separationZoom: Int

    init(_ organizations: [ClusterIndex.Organization], options: ClusterOptions = ClusterOptions()) {
        // Locations: equal projected coordinates, in input order of their first organization.
        var locations: [Item] = []
        var locationOf: [Key: Int] = [:]
        for (index, organization) in organizations.enumerated() {
            let x = WebMercator.x(longitude: organization.longitude) + 0
            let y = WebMercator.y(latitude: organization.latitude) + 0
            let key = Key(x: x.bitPattern, y: y.bitPattern)
            if let location = locationOf[key] {
                locations[location].count += 1
                locations[location].organizations.append(index)
            } else {
                locationOf[key] = locations.count
                locations.append(Item(x: x, y: y, count: 1, organizations: [index]))
            }
        }

        // From the cap down: levels that merge nothing above the first that does are the locations.
        var above = locations
        var made: [Int: [Item]] = [:]
        var highestMerge = -1
        for zoom in stride(from: options.maximumZoom - 1, through: 0, by: -1) {
            let (level, merged) = Self.cluster(above, zoom: zoom, options: options)
            if merged && highestMerge < 0 { highestMerge = zoom }
            made[zoom] = level
            above = level
        }
        let separationZoom = highestMerge + 1
        self.separationZoom = separationZoom
        levels = (0...separationZoom).map { zoom in zoom == separationZoom ? locations : made[zoom]! }
    }

    private struct Key: Hashable {
        let x: UInt64
        let y: UInt64
    }

    /// One level from the level above, in its order: each item not yet taken takes every untaken
    /// item within the distance; a cluster stands where its seed stood. (A grid of cells as wide
    /// as the distance only saves looking at far items; neighbours are taken in level order.)
    private static func cluster(_ items: [Item], zoom: Int, options: ClusterOptions) -> ([Item], Bool) {
        let r = options.radius / (options.extent * pow(2, Double(zoom)))
        let r2 = r * r
        func cell(_ item: Item) -> Cell { Cell(x: Int((item.x / r).rounded(.down)), y: Int((item.y / r).rounded(.down))) }
        var grid: [Cell: [Int]] = [:]
        for (index, item) in items.enumerated() { grid[cell(item), default: []].append(index) }
        var taken = [Bool](repeating: false, count: items.count)
        var level: [Item] = []
        var merged = false
        for i in items.indices where !taken[i] {
            taken[i] = true
            let home = cell(items[i])
            var neighbours: [Int] = []
            for dx in -1...1 {
                for dy in -1...1 {
                    for j in grid[Cell(x: home.x + dx, y: home.y + dy)] ?? [] where !taken[j] {
                        let ex = items[j].x - items[i].x, ey = items[j].y - items[i].y
                        if ex * ex + ey * ey <= r2 { neighbours.append(j) }
                    }
                }
            }
            neighbours.sort()
            if neighbours.isEmpty {
                level.append(items[i])
                continue
            }
            merged = true
            var wx = items[i].x * Double(items[i].count)
            var wy = items[i].y * Double(items[i].count)
            var count = items[i].count
            var organizations = items[i].organizations
            for j in neighbours {
                taken[j] = true
                wx += items[j].x * Double(items[j].count)
                wy += items[j].y * Double(items[j].count)
                count += items[j].count
                organizations += items[j].organizations
            }
            level.append(Item(x: wx / Double(count), y: wy / Double(count), count: count, organizations: organizations.sorted()))
        }
        return (level, merged)
    }

    private struct Cell: Hashable {
        let x: Int
        let y: Int
    }

    /// The items of `zoom` (clamped as the index clamps it).
    func items(atZoom zoom: Int) -> [Item] {
        levels[min(separationZoom, max(0, zoom))]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
