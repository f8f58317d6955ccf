import Foundation
import HubGeo
import HubGeoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The browser side of the map tests: `map_browser.py` under Debian's python3 with python3-selenium,
/// driving Debian's chromium through chromium-driver. Killed with SIGKILL past its time limit.
enum MapBrowser {
    static let script = TestPaths.testsDirectory.appendingPathComponent("Support/map_browser.py")
    /// Debian's interpreter, which sees the Debian python3-selenium and python3-pil packages.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")
    /// Where the screenshots are kept after the tests: `.build/test-artifacts/`.
    static let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts")

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs the script on `url` and returns its JSON report.
    static func run(_ url: String, screenshot name: String, arguments: [String], timeout: TimeInterval = 180) throws -> [String: Any] {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent(name).path
        let result = try CommandRunner.run(python, [script.path, url, "--screenshot", screenshot, "--deadline", String(Int(timeout - 20))] + arguments,
                                           environment: ProcessInfo.processInfo.environment, timeout: timeout)
        guard result.status == 0, let report = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw Failure(description: "map_browser.py exited \(result.status): \(result.stderr.suffix(3000)) \(result.text.prefix(2000))")
        }
        if let error = report["error"] { throw Failure(description: "map_browser.py: \(error)") }
        return report
    }
}

/// A `hubgeo serve` process with an OS-chosen port (on 127.0.0.1 unless `--host` says otherwise);
/// SIGKILL on deinit if still running.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let directory: TemporaryDirectory
    let stderrPath: String
    private(set) var port = 0
    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(arguments: [String], environment: [String: String], startupTimeout: TimeInterval = 60) throws {
        directory = try TemporaryDirectory()
        stderrPath = directory.path("stderr")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
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

    var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits up to `timeout` seconds; true when it exited.
    func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Bool {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return !process.isRunning
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// GET over libcurl: status and body.
    func get(_ path: String) throws -> (status: Int, body: String, contentType: String?) {
        let client = CurlClient(configuration: CurlClientConfiguration(userAgent: "hubgeo-tests", connectTimeout: 5, totalTimeout: 30,
                                                                        maxBodyBytes: 200 * 1024 * 1024))
        let response = try client.get(URL(string: baseURL + path)!)
        return (response.status, String(decoding: response.body, as: UTF8.self), response.header("Content-Type"))
    }
}

/// Parses JSON text into Foundation objects (NSDictionary equality compares them deeply).
func jsonObject(_ text: String) -> NSObject? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject
}

/// The ids of a GeoJSON FeatureCollection's features, in order.
func featureIDs(_ text: String) -> [String] {
    ((jsonObject(text) as? [String: Any])?["features"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}
