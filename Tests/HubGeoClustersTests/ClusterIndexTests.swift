import Testing
@testable import HubGeoClusters

/// The index against supercluster's clustering done the plain way (``ReferenceClustering``):
/// the same items at every zoom, views that count what a scan counts, boxes that hold their
/// organizations, expansion zooms that really split, co-located organizations kept together.
@Suite("Cluster index")
struct ClusterIndexTests {
    /// An item as the reference describes it: position, count and organizations (ids are input positions).
    static func described(_ item: ClusterIndex.Item, in index: ClusterIndex) throws -> ReferenceClustering.Item {
        let leaves = try index.leaves(of: item.id, limit: .max).map { Int($0) }.sorted()
        return ReferenceClustering.Item(x: item.x, y: item.y, count: item.count, organizations: leaves)
    }

    static func world(_ index: ClusterIndex, zoom: Int) -> [ClusterIndex.Item] {
        index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom)
    }

    static let optionSets: [ClusterOptions] = [
        ClusterOptions(),
        ClusterOptions(radius: 40, extent: 512, maximumZoom: 16, nodeSize: 3),
        ClusterOptions(radius: 80, extent: 256, maximumZoom: 9, nodeSize: 1),
    ]

    @Test(arguments: [(UInt64(1), 0), (2, 1), (3, 2), (4, 0)])
    func everyZoomHoldsTheReferenceItems(seed: UInt64, optionSet: Int) throws {
        let options = Self.optionSets[optionSet]
        let organizations = TestData.clubs(count: seed == 4 ? 20_000 : 3000, seed: seed)
        let index = try ClusterIndex(organizations, options: options)
        let reference = ReferenceClustering(organizations, options: options)
        #expect(index.separationZoom == reference.separationZoom)
        #expect(index.separationZoom > 3)
        for zoom in 0...(reference.separationZoom + 1) {
            let items = Self.world(index, zoom: zoom)
            #expect(items.reduce(0) { $0 + $1.count } == organizations.count, "zoom \(zoom)")
            let described = Set(try items.map { try Self.described($0, in: index) })
            let expected = Set(reference.items(atZoom: zoom))
            #expect(described == expected, "zoom \(zoom): \(described.subtracting(expected).count) items differ")
            // Every organization in exactly one item.
            let all = described.flatMap(\.organizations).sorted()
            #expect(all == Array(0..<organizations.count), "zoom \(zoom)")
        }
    }

    /// Many small worlds of clumps within clumps, where the shortcuts of the build (only items
    /// due at a level and their neighbours are visited) meet every order of events.
    @Test func smallWorldsHoldTheReferenceItems() throws {
        var random = SplitMix64(seed: 5)
        var clustered = 0
        for world in 0..<600 {
            let organizations = TestData.clumps(count: Int.random(in: 2...40, using: &random), &random)
            let options = Self.optionSets[world % Self.optionSets.count]
            let index = try ClusterIndex(organizations, options: options)
            let reference = ReferenceClustering(organizations, options: options)
            #expect(index.separationZoom == reference.separationZoom, "world \(world)")
            for zoom in 0...reference.separationZoom {
                let described = Set(try Self.world(index, zoom: zoom).map { try Self.described($0, in: index) })
                #expect(described == Set(reference.items(atZoom: zoom)), "world \(world), zoom \(zoom)")
            }
            clustered += index.clusterCount
        }
        #expect(clustered > 5000)
    }

    /// Worlds found by a random search and then shrunk, each where leaving out one step of the
    /// build's shortcuts gives a different clustering:
    /// 1, 2. an item is due at a level, finds no one left there, and meets another item only at a
    ///    lower level: it must get a new event (the first lies beyond 85.05° N, where every y is
    ///    the top edge of the map);
    /// 3. an older item that is not due at a level comes before a new neighbour in level order:
    ///    the neighbours of due items must be visited too, so that it is the seed.
    @Test(arguments: [
        (1, [(85.33399516461877, -17.144825857612442), (85.33559528735836, -17.16143750452464),
             (85.33464055727673, -17.15212807819201), (85.3346414888438, -17.15212821112224),
             (85.3356235061733, -17.150834468282756), (85.33476758533831, -17.157443300592487)]),
        (0, [(17.71351423711252, -42.430734646099836), (17.732873345046066, -42.41538669763668),
             (17.732871946978648, -42.41538560688028), (17.768401632292246, -42.41209421984635),
             (17.73287703822766, -42.415353251508165), (17.712384918424615, -42.431537132922905),
             (17.732897061519203, -42.415383903629596), (17.619313956363168, -42.38397438125626),
             (17.73304765877133, -42.415929214826654), (17.45488430966773, -44.376950992446204),
             (17.732461704727527, -42.41619010391869), (17.02690582255264, -47.90612867197811),
             (17.72454083171923, -45.622605798101105), (17.093169643202547, -48.31935598228407),
             (18.3748667193276, -50.52324138426701)]),
        (0, [(-54.683562703691216, -16.697139461225817), (-54.04612998025114, -17.467307015494377),
             (-54.30085257343345, -16.6496488555463), (-54.683249819170044, -16.69680701328819),
             (-54.686100891321864, -16.699378567025732), (-54.685263520145185, -16.7011246363094)]),
    ])
    func shrunkWorldsWhereAShortcutMatters(optionSet: Int, coordinates: [(Double, Double)]) throws {
        let organizations = coordinates.enumerated().map {
            ClusterIndex.Organization(id: Int64($0.offset), latitude: $0.element.0, longitude: $0.element.1)
        }
        let options = Self.optionSets[optionSet]
        let index = try ClusterIndex(organizations, options: options)
        let reference = ReferenceClustering(organizations, options: options)
        #expect(index.separationZoom == reference.separationZoom)
        for zoom in 0...reference.separationZoom {
            let described = Set(try Self.world(index, zoom: zoom).map { try Self.described($0, in: index) })
            #expect(described == Set(reference.items(atZoom: zoom)), "zoom \(zoom)")
        }
    }

    @Test func viewsCountWhatAScanOfTheReferenceCounts() throws {
        let organizations = TestData.clubs(count: 900, seed: 11)
        let index = try ClusterIndex(organizations)
        let reference = ReferenceClustering(organizations)
        var random = SplitMix64(seed: 12)
        var nonEmpty = 0
        for _ in 0..<400 {
            let view = TestData.view(&random, maxZoom: index.separationZoom, around: organizations)
            let found = index.clusters(west: view.west, south: view.south, east: view.east, north: view.north, zoom: view.zoom)
            let intervals = Self.xIntervals(west: view.west, east: view.east)
            let minY = WebMercator.y(latitude: min(90, max(-90, view.north)))
            let maxY = WebMercator.y(latitude: min(90, max(-90, view.south)))
            let inside = reference.items(atZoom: view.zoom).filter { item in
                item.y >= minY && item.y <= maxY && intervals.contains { item.x >= $0.lowerBound && item.x <= $0.upperBound }
            }
            #expect(found.reduce(0) { $0 + $1.count } == inside.reduce(0) { $0 + $1.count }, "\(view)")
            #expect(Set(try found.map { try Self.described($0, in: index) }) == Set(inside), "\(view)")
            if !inside.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 120)
    }

    /// The view's longitudes as intervals of x, worked out here from the longitudes: a box
    /// wider than the world is all of it; otherwise it starts at the west edge brought into
    /// [-180, 180) and, past 180°, goes on from -180°.
    static func xIntervals(west: Double, east: Double) -> [ClosedRange<Double>] {
        var width = east - west
        if width < 0 { width += 360 }
        if width >= 360 { return [0...1] }
        var start = west
        while start < -180 { start += 360 }
        while start >= 180 { start -= 360 }
        let end = start + width
        if end <= 180 { return [WebMercator.x(longitude: start)...WebMercator.x(longitude: end)] }
        return [WebMercator.x(longitude: start)...1, 0...WebMercator.x(longitude: end - 360)]
    }

    @Test func countsAreConservedAndViewsMatchTheParentChainsAtScale() throws {
        let organizations = TestData.clubs(count: 12_000, seed: 21)
        let index = try ClusterIndex(organizations)
        // Each organization's item at each zoom, found by walking down from the zoom-0 items.
        var itemOf = [[Int]](repeating: [Int](repeating: -1, count: organizations.count), count: index.separationZoom + 1)
        var stack = Self.world(index, zoom: 0)
        var seen = 0
        while let item = stack.popLast() {
            seen += 1
            for leaf in try index.leaves(of: item.id, limit: .max) {
                for zoom in item.zooms { itemOf[zoom][Int(leaf)] = item.id }
            }
            stack += try index.children(of: item.id)
        }
        #expect(seen == index.locationCount + index.clusterCount)
        for zoom in 0...index.separationZoom {
            #expect(!itemOf[zoom].contains(-1), "zoom \(zoom)")
            #expect(Self.world(index, zoom: zoom).reduce(0) { $0 + $1.count } == organizations.count)
        }
        var random = SplitMix64(seed: 22)
        for _ in 0..<200 {
            let view = TestData.view(&random, maxZoom: index.separationZoom, around: organizations)
            let zoom = min(index.separationZoom, max(0, view.zoom))
            let intervals = Self.xIntervals(west: view.west, east: view.east)
            let minY = WebMercator.y(latitude: min(90, max(-90, view.north)))
            let maxY = WebMercator.y(latitude: min(90, max(-90, view.south)))
            var positions: [Int: (x: Double, y: Double)] = [:]
            let expected = (0..<organizations.count).filter { organization in
                let id = itemOf[zoom][organization]
                let position = positions[id] ?? { let item = try! index.item(id: id); return (item.x, item.y) }()
                positions[id] = position
                return position.y >= minY && position.y <= maxY
                    && intervals.contains { position.x >= $0.lowerBound && position.x <= $0.upperBound }
            }.count
            let found = index.clusters(west: view.west, south: view.south, east: view.east, north: view.north, zoom: view.zoom)
            #expect(found.reduce(0) { $0 + $1.count } == expected, "\(view)")
        }
    }

    @Test func boxesHoldTheirOrganizationsAndExpansionZoomsSplit() throws {
        let organizations = TestData.clubs(count: 3000, seed: 31)
        let index = try ClusterIndex(organizations)
        var clusters = 0
        for id in 0..<(index.locationCount + index.clusterCount) {
            let item = try index.item(id: id)
            let leaves = try index.leaves(of: id, limit: .max)
            #expect(leaves.count == item.count)
            for leaf in leaves {
                let organization = organizations[Int(leaf)]
                #expect(item.bounds.contains(latitude: organization.latitude, longitude: organization.longitude), "\(item)")
            }
            guard let expansionZoom = item.expansionZoom else {
                #expect(item.kind != .cluster)
                #expect(try index.children(of: id).isEmpty)
                #expect(item.zooms.upperBound == index.separationZoom)
                continue
            }
            clusters += 1
            #expect(try index.expansionZoom(of: id) == expansionZoom)
            // Shown as one item up to the zoom before, in a view around it.
            let around = index.clusters(
                west: item.longitude - 1e-6, south: item.latitude - 1e-6, east: item.longitude + 1e-6,
                north: item.latitude + 1e-6, zoom: expansionZoom - 1)
            #expect(around.contains { $0.id == id })
            // At the expansion zoom its organizations are in two or more items, its children.
            let children = try index.children(of: id)
            #expect(children.count >= 2)
            #expect(children.allSatisfy { $0.zooms.lowerBound == expansionZoom })
            #expect(children.reduce(0) { $0 + $1.count } == item.count)
            let shown = index.clusters(
                west: item.bounds.west - 1e-3, south: item.bounds.south - 1e-3, east: item.bounds.east + 1e-3,
                north: item.bounds.north + 1e-3, zoom: expansionZoom)
            let holding = try shown.filter { !Set(try index.leaves(of: $0.id, limit: .max)).isDisjoint(with: leaves) }
            #expect(holding.count >= 2)
            #expect(Set(holding.map(\.id)) == Set(children.map(\.id)))
        }
        #expect(clusters == index.clusterCount && clusters > 100)
    }

    struct Stop: Error {}

    @Test func visitingAViewGivesItsItemsInOrderAndStopsOnAnError() throws {
        let index = try ClusterIndex(TestData.clubs(count: 2000, seed: 42))
        for zoom in [0, 3, 8, index.separationZoom] {
            var visited: [ClusterIndex.Item] = []
            index.forEachItem(west: -30, south: 20, east: 60, north: 70, zoom: zoom) { visited.append($0) }
            #expect(visited == index.clusters(west: -30, south: 20, east: 60, north: 70, zoom: zoom))
        }
        var seen = 0
        #expect(throws: Stop.self) {
            try index.forEachItem(west: -180, south: -90, east: 180, north: 90, zoom: 5) { _ in
                seen += 1
                if seen == 3 { throw Stop() }
            }
        }
        #expect(seen == 3)
    }

    /// A server asks one index from many tasks at once.
    @Test func concurrentViewsAnswerAsOneAtATime() async throws {
        let index = try ClusterIndex(TestData.clubs(count: 5000, seed: 43))
        var random = SplitMix64(seed: 44)
        let views = (0..<200).map { _ in TestData.view(&random, maxZoom: index.separationZoom, around: []) }
        let expected = views.map { index.clusters(west: $0.west, south: $0.south, east: $0.east, north: $0.north, zoom: $0.zoom) }
        let answers = await withTaskGroup(of: (Int, [ClusterIndex.Item]).self) { group in
            for (number, view) in views.enumerated() {
                group.addTask {
                    (number, index.clusters(west: view.west, south: view.south, east: view.east, north: view.north, zoom: view.zoom))
                }
            }
            var answers = [[ClusterIndex.Item]](repeating: [], count: views.count)
            for await (number, items) in group { answers[number] = items }
            return answers
        }
        #expect(answers == expected)
    }

    @Test func leavesPageThroughACluster() throws {
        let organizations = TestData.clubs(count: 2000, seed: 41)
        let index = try ClusterIndex(organizations)
        let top = Self.world(index, zoom: 0).max { $0.count < $1.count }!
        let all = try index.leaves(of: top.id, limit: .max)
        #expect(all.count == top.count && Set(all).count == all.count)
        var paged: [Int64] = []
        var offset = 0
        while offset < top.count {
            paged += try index.leaves(of: top.id, limit: 7, offset: offset)
            offset += 7
        }
        #expect(paged == all)
        #expect(try index.leaves(of: top.id, limit: 5, offset: top.count).isEmpty)
        #expect(try index.leaves(of: top.id, limit: 0).isEmpty)
        #expect(try index.leaves(of: top.id).count == min(10, top.count))
    }

    @Test func colocatedOrganizationsStayOneGroupAtEveryZoom() throws {
        var organizations = TestData.clubs(count: 500, seed: 51)
        let building = (latitude: 52.370216, longitude: 4.895168)
        let members: [Int64] = [500, 501, 502, 503]
        for id in members {
            organizations.append(.init(id: id, latitude: building.latitude, longitude: building.longitude))
        }
        // A neighbour a few metres away splits from the group at a high zoom, the group never splits.
        organizations.append(.init(id: 504, latitude: building.latitude + 0.00003, longitude: building.longitude))
        let index = try ClusterIndex(organizations)
        #expect(index.separationZoom >= 17)
        for zoom in 0...(index.separationZoom + 3) {
            let holding = try Self.world(index, zoom: zoom).filter {
                !Set(try index.leaves(of: $0.id, limit: .max)).isDisjoint(with: members)
            }
            #expect(holding.count == 1)
            let leaves = Set(try index.leaves(of: holding[0].id, limit: .max))
            #expect(leaves.isSuperset(of: members))
            if zoom >= index.separationZoom {
                #expect(holding[0].kind == .colocatedGroup)
                #expect(Array(holding[0].organizationIDs) == members)
                #expect(holding[0].latitude == building.latitude && holding[0].longitude == building.longitude)
                #expect(holding[0].expansionZoom == nil)
                #expect(holding[0].bounds == .init(south: building.latitude, west: building.longitude,
                                                   north: building.latitude, east: building.longitude))
            }
        }
    }

    @Test func viewsAcrossTheAntimeridian() throws {
        let organizations: [ClusterIndex.Organization] = [
            .init(id: 0, latitude: 10, longitude: 179.5), .init(id: 1, latitude: 10, longitude: -179.5),
            .init(id: 2, latitude: 10, longitude: 180), .init(id: 3, latitude: 10, longitude: -180),
            .init(id: 4, latitude: 10, longitude: 0), .init(id: 5, latitude: -20, longitude: 170),
        ]
        let index = try ClusterIndex(organizations)
        func ids(_ west: Double, _ east: Double, south: Double = -90, north: Double = 90) throws -> Set<Int64> {
            let items = index.clusters(west: west, south: south, east: east, north: north, zoom: index.separationZoom)
            return Set(try items.flatMap { try index.leaves(of: $0.id, limit: .max) })
        }
        #expect(try ids(179, -179) == [0, 1, 2, 3])         // east edge west of the west edge
        #expect(try ids(179, 181) == [0, 1, 2, 3])          // beyond 180°
        #expect(try ids(-181, -179) == [0, 1, 2, 3])        // beyond -180°
        #expect(try ids(539, 541) == [0, 1, 2, 3])          // a world further east
        #expect(try ids(-179, 179) == [4, 5])               // the other way round: all but the antimeridian
        #expect(try ids(165, -179, south: -30, north: 0) == [5])
        #expect(try ids(-180, 180) == [0, 1, 2, 3, 4, 5])
        #expect(try ids(-500, 500) == [0, 1, 2, 3, 4, 5])
        #expect(try ids(170, 180) == [0, 2, 5])
        #expect(try ids(-180, -170) == [1, 3])
        #expect(try ids(1, 2).isEmpty)
        #expect(index.clusters(west: .nan, south: 0, east: 1, north: 1, zoom: 3).isEmpty)
        #expect(index.clusters(west: 0, south: 20, east: 10, north: 10, zoom: 3).isEmpty)  // south above north
    }

    @Test func edgeCases() throws {
        let empty = try ClusterIndex([])
        #expect(empty.separationZoom == 0 && empty.organizationCount == 0)
        for zoom in [-1, 0, 5, 40] { #expect(Self.world(empty, zoom: zoom).isEmpty) }
        #expect(throws: ClusterIndexError.unknownID(0)) { try empty.children(of: 0) }

        let single = try ClusterIndex([.init(id: 42, latitude: 51.5, longitude: -0.12)])
        #expect(single.separationZoom == 0)
        for zoom in [0, 3, 30] {
            let items = Self.world(single, zoom: zoom)
            #expect(items.count == 1 && items[0].kind == .organization && Array(items[0].organizationIDs) == [42])
            #expect(items[0].latitude == 51.5 && items[0].longitude == -0.12 && items[0].expansionZoom == nil)
        }

        let same = try ClusterIndex((0..<1000).map { .init(id: Int64($0), latitude: 48.8566, longitude: 2.3522) })
        #expect(same.separationZoom == 0 && same.locationCount == 1 && same.clusterCount == 0)
        for zoom in [0, 10, 24] {
            let items = Self.world(same, zoom: zoom)
            #expect(items.count == 1 && items[0].kind == .colocatedGroup && items[0].count == 1000)
            #expect(Array(items[0].organizationIDs) == (0..<1000).map { Int64($0) })
        }

        // The edges of the map and the poles: latitudes beyond 85.0511° are drawn on the edge,
        // so at one longitude they are one location; the two poles and the two sides of the
        // antimeridian are far apart.
        let edges: [ClusterIndex.Organization] = [
            .init(id: 0, latitude: 90, longitude: 0), .init(id: 1, latitude: 89, longitude: 0),
            .init(id: 2, latitude: 85.06, longitude: 0), .init(id: 3, latitude: -90, longitude: 0),
            .init(id: 4, latitude: 85.05, longitude: 180), .init(id: 5, latitude: -85.05, longitude: -180),
            .init(id: 6, latitude: 0, longitude: 180), .init(id: 7, latitude: 0, longitude: -180),
            .init(id: 8, latitude: 85.05, longitude: 179.99),
        ]
        let index = try ClusterIndex(edges)
        let reference = ReferenceClustering(edges)
        #expect(index.separationZoom == reference.separationZoom)
        for zoom in 0...(index.separationZoom + 1) {
            let items = Self.world(index, zoom: zoom)
            #expect(items.reduce(0) { $0 + $1.count } == edges.count)
            #expect(Set(try items.map { try Self.described($0, in: index) }) == Set(reference.items(atZoom: zoom)))
        }
        let pole = try #require(Self.world(index, zoom: 30).first { Array($0.organizationIDs).contains(0) })
        #expect(Array(pole.organizationIDs) == [0, 1, 2])
        #expect(pole.kind == .colocatedGroup && pole.latitude == 90)
        #expect(pole.bounds == .init(south: 85.06, west: 0, north: 90, east: 0))
        // A view of the northern edge finds the polar group; one that stops at 85° does not.
        #expect(index.clusters(west: -1, south: 84, east: 1, north: 90, zoom: 30).map(\.id).contains(pole.id))
        #expect(!index.clusters(west: -1, south: 84, east: 1, north: 85, zoom: 30).map(\.id).contains(pole.id))
    }

    @Test func badInputIsRefusedNamingTheOrganization() {
        let valid = ClusterIndex.Organization(id: 0, latitude: 1, longitude: 1)
        for (latitude, longitude) in [(90.5, 0.0), (0, -180.01), (.nan, 0), (0, .infinity)] {
            let bad = ClusterIndex.Organization(id: 1, latitude: latitude, longitude: longitude)
            #expect {
                try ClusterIndex([valid, valid, bad])
            } throws: { error in
                guard case let .invalidCoordinate(index, _, _) = error as? ClusterIndexError else { return false }
                return index == 2
            }
        }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex([valid], options: ClusterOptions(radius: 0)) }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex([valid], options: ClusterOptions(maximumZoom: 31)) }
        #expect(throws: ClusterIndexError.self) { try ClusterIndex([valid], options: ClusterOptions(nodeSize: 0)) }
    }

    @Test func theSeparationZoomIsCapped() throws {
        // Two clubs 5 cm apart would need zoom 27; the cap stops at 24, where they stand apart.
        let organizations: [ClusterIndex.Organization] = [
            .init(id: 0, latitude: 0, longitude: 10), .init(id: 1, latitude: 0, longitude: 10.0000005),
        ]
        let index = try ClusterIndex(organizations)
        #expect(index.separationZoom == 24)
        #expect(Self.world(index, zoom: 23).count == 1)
        #expect(Self.world(index, zoom: 24).count == 2)
        #expect(Self.world(index, zoom: 23)[0].expansionZoom == 24)
        let capped = try ClusterIndex(organizations, options: ClusterOptions(maximumZoom: 12))
        #expect(capped.separationZoom == 12)
        #expect(Self.world(capped, zoom: 12).count == 2)
    }
}
