import HubGeoClusters

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// hubgeo-cluster-bench: build, serialization and query timings of the cluster index.
//   hubgeo-cluster-bench build COUNT [SEED] [--europe] [--save FILE] [--queries]
//   hubgeo-cluster-bench points FILE [--save BLOB] [--queries]   (FILE: little-endian Float64
//       latitude, longitude pairs; the points of `make bench` are written by
//       python3 -c 'import struct, sys; sys.path.insert(0, "Benchmarks"); import generate;
//         open("points.bin", "wb").write(b"".join(struct.pack("<dd", *p) for p in generate.generate(1000000, 1)))')
//   hubgeo-cluster-bench load BLOB [--queries]
// `build` generates COUNT organizations spread as Benchmarks/generate.py spreads them (towns of
// 1–15 km around COUNT/50 centres on the land-rich latitudes, a quarter scattered over the
// sphere, 5% sharing an earlier one's coordinates; with --europe, half the centres in Europe),
// and builds the index. Run it under `/usr/bin/time -f '%M KB %e s'` for the peak memory; each
// mode does only its own work, so `load` measures a server start.

struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        let u = max(Double.ulpOfOne, uniform(0, 1)), v = uniform(0, 1)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

func generate(count: Int, seed: UInt64, europe: Bool) -> [ClusterIndex.Organization] {
    var random = Generator(state: seed)
    let degrees = 180 / Double.pi
    let centres = (0..<max(10, count / 50)).map { index -> (Double, Double, Double) in
        if europe && index % 2 == 0 {
            return (random.uniform(36, 70), random.uniform(-10, 40), random.uniform(1, 15))
        }
        return (asin(random.uniform(-0.8, 0.95)) * degrees, random.uniform(-180, 180), random.uniform(1, 15))
    }
    var organizations: [ClusterIndex.Organization] = []
    organizations.reserveCapacity(count)
    for index in 0..<count {
        let kind = random.uniform(0, 1)
        var latitude: Double, longitude: Double
        if kind < 0.05 && !organizations.isEmpty {
            let earlier = organizations[Int(random.next() % UInt64(organizations.count))]
            (latitude, longitude) = (earlier.latitude, earlier.longitude)
        } else if kind < 0.75 {
            let (centreLatitude, centreLongitude, spread) = centres[Int(random.next() % UInt64(centres.count))]
            latitude = centreLatitude + random.gaussian() * spread / 111.2
            longitude = centreLongitude + random.gaussian() * spread / (111.2 * max(0.05, cos(centreLatitude / degrees)))
            latitude = max(-90, min(90, latitude))
            longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
        } else {
            latitude = asin(random.uniform(-1, 1)) * degrees
            longitude = random.uniform(-180, 180)
        }
        organizations.append(.init(
            id: Int64(index), latitude: (latitude * 1e6).rounded() / 1e6, longitude: (longitude * 1e6).rounded() / 1e6))
    }
    return organizations
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    var bytes = [UInt8](repeating: 0, count: size)
    let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
    precondition(read == size, "short read of \(path)")
    return bytes
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func report(_ index: ClusterIndex) {
    print("organizations \(index.organizationCount), locations \(index.locationCount), clusters \(index.clusterCount), separation zoom \(index.separationZoom)")
}

/// Views of a 1280×800 page at the zoom of each kind, centred on 1,000 random locations (the
/// same for a built and a loaded index).
func measureQueries(_ index: ClusterIndex) {
    let kinds: [(name: String, zoom: Int)] = [("world", 1), ("continent", 4), ("country", 7), ("city", 12), ("street", 16)]
    var random = Generator(state: 99)
    let centres: [(Double, Double)] = (0..<1000).map { _ in
        let item = try! index.item(id: Int(random.next() % UInt64(index.locationCount)))
        return (item.latitude, item.longitude)
    }
    let clock = ContinuousClock()
    print("view       zoom   items(median)  median ms    p99 ms     max ms")
    for kind in kinds {
        let scale = Double(1 << kind.zoom) * 256
        let width = 1280 / scale * 360, height = 800 / scale * 360  // degrees of longitude; latitude below
        var times: [Double] = []
        var counts: [Int] = []
        var total = 0
        for (latitude, longitude) in centres {
            // Height in Web Mercator, turned into latitudes around the centre.
            let y = 0.5 - log(tan(.pi / 4 + latitude * .pi / 360)) / (2 * .pi)
            let north = atan(sinh(.pi * (1 - 2 * max(0, y - height / 720)))) * 180 / .pi
            let south = atan(sinh(.pi * (1 - 2 * min(1, y + height / 720)))) * 180 / .pi
            let west = longitude - width / 2, east = longitude + width / 2
            let start = clock.now
            let items = index.clusters(west: west, south: south, east: east, north: north, zoom: kind.zoom)
            times.append(seconds(clock.now - start) * 1000)
            counts.append(items.count)
            total += items.reduce(0) { $0 + $1.count }
        }
        times.sort()
        counts.sort()
        let line = [kind.name.padding(10), String(kind.zoom).padding(6), String(counts[counts.count / 2]).padding(14),
                    format(times[times.count / 2]).padding(10), format(times[times.count * 99 / 100]).padding(10),
                    format(times.last!)]
        print(line.joined(separator: " "))
    }
    // The whole world at every zoom up to 8.
    for zoom in 0...8 {
        var times: [Double] = []
        var count = 0
        for _ in 0..<50 {
            let start = clock.now
            count = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom).count
            times.append(seconds(clock.now - start) * 1000)
        }
        times.sort()
        print("whole world zoom \(zoom): \(count) items, median \(format(times[25])) ms")
    }
}

func format(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    return String(rounded)
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let clock = ContinuousClock()
guard let mode = arguments.first, arguments.count >= 2 else {
    print("usage: hubgeo-cluster-bench build COUNT [SEED] [--europe] [--save FILE] [--queries] | points FILE [--save BLOB] [--queries] | load BLOB [--queries]")
    exit(64)
}
switch mode {
case "build", "points":
    let organizations: [ClusterIndex.Organization]
    if mode == "build" {
        let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : 1
        organizations = generate(count: Int(arguments[1])!, seed: seed, europe: arguments.contains("--europe"))
    } else {
        let bytes = readFile(arguments[1])
        organizations = bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / 16)).map {
                ClusterIndex.Organization(
                    id: Int64($0), latitude: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * $0, as: UInt64.self))),
                    longitude: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * $0 + 8, as: UInt64.self))))
            }
        }
    }
    let start = clock.now
    let index = try ClusterIndex(organizations)
    print("build \(format(seconds(clock.now - start))) s")
    report(index)
    if let path = option("--save") {
        // Written piece by piece, as an import writes the blob, without a copy of the index.
        guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
        let serializeStart = clock.now
        index.serialize { piece in precondition(fwrite(piece.baseAddress, 1, piece.count, file) == piece.count, "short write") }
        fclose(file)
        let size = index.serializedByteCount
        print("serialize and write \(format(seconds(clock.now - serializeStart) * 1000)) ms, \(size) bytes (\(format(Double(size) / 1_048_576)) MiB)")
    }
    if arguments.contains("--queries") { measureQueries(index) }
case "load":
    // Read straight into the index's memory, as a server reads its blob from the database.
    guard let file = fopen(arguments[1], "rb") else { fatalError("cannot open \(arguments[1])") }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    let start = clock.now
    var reading = Duration.zero
    let index = try ClusterIndex(serializedByteCount: size) { memory in
        let readStart = clock.now
        precondition(fread(memory.baseAddress, 1, size, file) == size, "short read")
        reading = clock.now - readStart
    }
    fclose(file)
    let total = clock.now - start
    print("load \(format(seconds(total) * 1000)) ms for \(size) bytes: reading \(format(seconds(reading) * 1000)) ms, checking \(format(seconds(total - reading) * 1000)) ms")
    report(index)
    if arguments.contains("--queries") { measureQueries(index) }
default:
    print("unknown mode \(mode)")
    exit(64)
}
