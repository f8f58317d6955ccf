import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `hubgeo` binary like a user would, with its own database and a time limit.
public struct CLIRunner: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public struct BinaryNotFound: Error, CustomStringConvertible {
        public var places: [String]
        public var description: String { "hubgeo binary not found in \(places); build with `swift build --build-tests`" }
    }

    /// The directory of the test bundle holds the products built with it.
    public static func binary() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].map { $0.appendingPathComponent("hubgeo") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BinaryNotFound(places: candidates.map(\.path))
        }
        return found
    }

    public var environment: [String: String]

    /// A runner whose database is `database` and whose HOME and XDG paths point into `home`.
    public init(database: String, home: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["HUBGEO_DB"] = database
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        self.environment = environment
    }

    public func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        let result = try CommandRunner.run(try Self.binary(), arguments, environment: environment, timeout: timeout)
        return Result(status: result.status, stdout: result.text, stderr: result.stderr)
    }
}
