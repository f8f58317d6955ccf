import Foundation
import HubGeo
#if canImport(Glibc)
import Glibc
#endif

/// The browser side of the map tests: `map_browser.py` under Debian's python3 with python3-selenium,
/// driving Debian's chromium through chromium-driver. Killed with SIGKILL past its time limit.
package enum MapBrowser {
    package static let script = TestPaths.supportDirectory.appendingPathComponent("map_browser.py")
    /// Debian's interpreter, which sees the Debian python3-selenium and python3-pil packages.
    package static let python = URL(fileURLWithPath: "/usr/bin/python3")
    /// Where the screenshots are kept after the tests: `.build/test-artifacts/`.
    package static let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts")

    package struct Failure: Error, CustomStringConvertible { package var description: String }

    /// Runs the script on `url` and returns its JSON report.
    package static func run(_ url: String, screenshot name: String, arguments: [String], timeout: TimeInterval = 180,
                            script: URL = MapBrowser.script) throws -> [String: Any] {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent(name).path
        let result = try CommandRunner.run(python, [script.path, url, "--screenshot", screenshot, "--deadline", String(Int(timeout - 20))] + arguments,
                                           environment: ProcessInfo.processInfo.environment, timeout: timeout)
        guard result.status == 0, let report = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw Failure(description: "\(script.lastPathComponent) exited \(result.status): \(result.stderr.suffix(3000)) \(result.text.prefix(2000))")
        }
        if let error = report["error"] { throw Failure(description: "\(script.lastPathComponent): \(error) \(report)") }
        return report
    }
}

/// A `hubgeo serve` process with an OS-chosen port (on 127.0.0.1 unless `--host` says otherwise);
/// SIGKILL on deinit if still running.
package final class ServeProcess: @unchecked Sendable {
    package let process = Process()
    package let directory: TemporaryDirectory
    package let stderrPath: String
    package private(set) var port = 0
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    package init(arguments: [String], environment: [String: String], startupTimeout: TimeInterval = 60) throws {
        directory = try TemporaryDirectory()
        stderrPath = directory.path("stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = try CLIRunner.binary()
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = environment
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(startupTimeout)
        while Date() < deadline && process.isRunning {
            // "Serving ... on http://HOST:PORT/": whatever the host, 127.0.0.1 reaches it.
            if let range = log.range(of: #" on http://\S+:\d+/ "#, options: .regularExpression) {
                port = Int(log[range].dropLast(2).split(separator: ":").last ?? "") ?? 0
                return
            }
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        throw MapBrowser.Failure(description: "hubgeo serve did not start: \(log)")
    }

    package var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits up to `timeout` seconds; true when it exited.
    package func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Bool {
        kill(process.processIdentifier, signal)
        return Waiting.exit(of: process, timeout: timeout)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// GET over libcurl: status and body.
    package func get(_ path: String) throws -> (status: Int, body: String, contentType: String?) {
        let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo-tests", connectTimeout: 5, totalTimeout: 30,
                                                                        maxBodyBytes: 200 * 1024 * 1024))
        let response = try client.get(URL(string: baseURL + path)!)
        return (response.status, String(decoding: response.body, as: UTF8.self), response.header("Content-Type"))
    }
}

/// Parses JSON text into Foundation objects (NSDictionary equality compares them deeply).
package func jsonObject(_ text: String) -> NSObject? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject
}

/// The ids of a GeoJSON FeatureCollection's features, in order.
package func featureIDs(_ text: String) -> [String] {
    ((jsonObject(text) as? [String: Any])?["features"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}

/// The cluster icons a map page showed and their rings, as `map_browser.py` read them from the DOM
/// (`rings`): checked against the clubs and museums each should show.
package struct ClusterRings {
    package let icons: [[String: Any]]
    package let singles: [String: Int]
    package let legend: [String: Any]?

    package static let clubColour = [31, 111, 209], museumColour = [209, 47, 31]
    /// The ring's smallest arc (map-common.js: RING_MIN_ARC), in pixels.
    package static let minimumArc = 2.0

    package init(_ report: [String: Any]) throws {
        guard let rings = report["rings"] as? [String: Any] else { throw MapBrowser.Failure(description: "no rings in the report") }
        icons = rings["icons"] as? [[String: Any]] ?? []
        singles = rings["singles"] as? [String: Int] ?? [:]
        legend = rings["legend"] as? [String: Any]
    }

    /// The clubs and museums the page's clusters and single markers stand for.
    package var clubs: Int { icons.reduce(0) { $0 + ($1["clubs"] as? Int ?? 0) } + (singles["club"] ?? 0) }
    package var museums: Int { icons.reduce(0) { $0 + ($1["museums"] as? Int ?? 0) } + (singles["museum"] ?? 0) }

    /// The length of an icon's arcs of `kind` (club, museum) and the ring's circumference.
    package static func arcs(_ icon: [String: Any], _ kind: String) -> (length: Double, circumference: Double, arcs: [[String: Any]]) {
        let arcs = (icon["arcs"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
        return (arcs.reduce(0) { $0 + ($1["length"] as? Double ?? 0) }, arcs.first?["circumference"] as? Double ?? 0, arcs)
    }

    /// What is wrong with `icon`'s ring for `clubs` and `museums` (nil when nothing is): one arc per type
    /// present, in its colour, lengths proportional to the counts (within the widening of a small share),
    /// together the whole ring, and pathLength the ring's length; no arcs when `ringed` is false.
    package static func problem(_ icon: [String: Any], clubs: Int, museums: Int, ringed: Bool = true) -> String? {
        let club = arcs(icon, "club"), museum = arcs(icon, "museum")
        if !ringed { return club.arcs.isEmpty && museum.arcs.isEmpty ? nil : "a ring where none belongs: \(icon)" }
        if icon["clubs"] as? Int != clubs || icon["museums"] as? Int != museums {
            return "data-clubs and data-museums \(icon["clubs"] ?? "nil")/\(icon["museums"] ?? "nil"), expected \(clubs)/\(museums)"
        }
        if club.arcs.count != (clubs > 0 ? 1 : 0) || museum.arcs.count != (museums > 0 ? 1 : 0) { return "arcs \(icon["arcs"] ?? "none") for \(clubs)/\(museums)" }
        let circumference = max(club.circumference, museum.circumference)
        guard circumference > 0 else { return "no ring: \(icon)" }
        if abs(club.length + museum.length - circumference) > 0.01 { return "arcs \(club.length) + \(museum.length) are not the ring's \(circumference)" }
        let share = Double(clubs) / Double(clubs + museums)
        if abs(club.length / circumference - share) > minimumArc / circumference + 0.0001 { return "club arc \(club.length) of \(circumference) for a share of \(share)" }
        for (arc, colour) in club.arcs.map({ ($0, "rgb(31, 111, 209)") }) + museum.arcs.map({ ($0, "rgb(209, 47, 31)") }) {
            if arc["stroke"] as? String != colour { return "stroke \(arc["stroke"] ?? "") instead of \(colour)" }
            if abs((arc["pathLength"] as? Double ?? 0) - circumference) > 0.01 { return "pathLength \(arc["pathLength"] ?? "") of a ring \(circumference) long" }
        }
        return nil
    }

    /// Whether the screenshot shows the colour of each of the icon's arcs of 6 px or more at its middle.
    package static func seen(_ icon: [String: Any]) -> Bool {
        let arcs = (icon["arcs"] as? [[String: Any]] ?? []).filter { ($0["length"] as? Double ?? 0) >= 6 }
        return !arcs.isEmpty && arcs.allSatisfy { arc in
            guard let pixel = arc["pixel"] as? [Int], pixel.count == 3 else { return false }
            let colour = arc["kind"] as? String == "club" ? clubColour : museumColour
            return zip(pixel, colour).reduce(0) { $0 + abs($1.0 - $1.1) } <= 60
        }
    }

    /// Icons whose ring holds both clubs and museums, each arc seen in its colour on the screenshot.
    package var mixedSeen: [[String: Any]] {
        icons.filter { ($0["clubs"] as? Int ?? 0) > 0 && ($0["museums"] as? Int ?? 0) > 0 && Self.seen($0) }
    }
}
