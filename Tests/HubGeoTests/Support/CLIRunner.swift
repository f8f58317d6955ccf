import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `hubgeo` binary like a user would, with its own database and a time limit.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum RunError: Error, CustomStringConvertible {
        case binaryNotFound([String])
        case timedOut([String])

        var description: String {
            switch self {
            case .binaryNotFound(let places): "hubgeo binary not found in \(places); build with `swift build --build-tests`"
            case .timedOut(let arguments): "hubgeo \(arguments.joined(separator: " ")) did not finish in time"
            }
        }
    }

    /// The directory of the test bundle holds the products built with it.
    static func binary() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].map { $0.appendingPathComponent("hubgeo") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw RunError.binaryNotFound(candidates.map(\.path))
        }
        return found
    }

    var environment: [String: String]

    /// A runner whose database is `database` and whose HOME and XDG paths point into `home`.
    init(database: String, home: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["HUBGEO_DB"] = database
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        self.environment = environment
    }

    func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.environment = environment
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hubgeo-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: a full pipe would block the child while we wait for it.
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            throw RunError.timedOut(arguments)
        }
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}
