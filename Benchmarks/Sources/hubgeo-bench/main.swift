import Foundation
import HubGeo

// hubgeo-bench: in-process query timings for `make bench` (Benchmarks/run.py).
//   hubgeo-bench near DB LAT LON KM RUNS SCAN_RUNS
//   hubgeo-bench bbox DB MINLAT MINLON MAXLAT MAXLON RUNS SCAN_RUNS
// Prints one JSON object: the median milliseconds of the indexed query (OrganizationStore.near /
// within, as `hubgeo near` and `bbox` run it, full organizations with their remarks) and of a
// full-scan reference on the same database (for near the fastest scan: one SELECT of id, latitude
// and longitude, a haversine test in Swift, exact distances for the survivors), the result count,
// and whether both found the same organizations (exit 1 when not). The database is opened
// read-only, as the query commands open it.

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted.count % 2 == 1 ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs `body` `runs` times, timed; with `warmUp`, once untimed before (statements prepared, pages cached).
func time<T>(_ runs: Int, warmUp: Bool = true, _ body: () throws -> T) rethrows -> (result: T, milliseconds: [Double]) {
    var result: T? = warmUp ? try body() : nil
    var times: [Double] = []
    for _ in 0..<max(1, runs) {
        let start = DispatchTime.now().uptimeNanoseconds
        result = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return (result!, times)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let store = try? OrganizationStore(path: arguments[1], access: .readOnly),
      let scan = try? FullScan(path: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: hubgeo-bench near|bbox DB ...\n".utf8))
    exit(64)
}
let numbers = arguments.dropFirst(2).compactMap(Double.init)
var indexed: (result: [String], milliseconds: [Double])
var scanned: (result: [String], milliseconds: [Double])
switch arguments[0] {
case "near" where numbers.count == 5:
    let center = GeoPoint(latitude: numbers[0], longitude: numbers[1])
    let meters = numbers[2] * 1000
    indexed = try time(Int(numbers[3])) { try store.near(center, radiusMeters: meters).map(\.organization.stableID).sorted() }
    scanned = try time(Int(numbers[4]), warmUp: false) { try scan.scanNear(center, radiusMeters: meters) }
case "bbox" where numbers.count == 6:
    let (south, west, north, east) = (numbers[0], numbers[1], numbers[2], numbers[3])
    indexed = try time(Int(numbers[4])) {
        try store.within(west: west, south: south, east: east, north: north).map(\.organization.stableID).sorted()
    }
    scanned = try time(Int(numbers[5]), warmUp: false) { try scan.scanWithin(west: west, south: south, east: east, north: north) }
default:
    FileHandle.standardError.write(Data("usage: hubgeo-bench near DB LAT LON KM RUNS SCAN_RUNS | bbox DB MINLAT MINLON MAXLAT MAXLON RUNS SCAN_RUNS\n".utf8))
    exit(64)
}
let same = indexed.result == scanned.result
let report: [String: Any] = [
    "indexMs": median(indexed.milliseconds), "scanMs": median(scanned.milliseconds),
    "count": indexed.result.count, "scanCount": scanned.result.count, "same": same,
]
print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
exit(same ? 0 : 1)
