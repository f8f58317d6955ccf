import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `hubgeo` binary and external tools (GDAL, xmllint, curl) like a user would.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The `hubgeo` executable built with the tests.
    public static var hubgeo: URL {
        get throws { try CLIRunner.binary() }
    }

    /// Runs hubgeo with `arguments`.
    public static func hubgeo(_ arguments: [String]) throws -> Result {
        try run(try hubgeo, arguments)
    }

    /// Runs a tool found on PATH; fails with a hint when it is not installed.
    public static func tool(_ name: String, _ arguments: [String], package: String) throws -> Result {
        guard let url = which(name) else {
            throw Failure(description: "\(name) is not installed: apt-get install \(package)")
        }
        return try run(url, arguments)
    }

    public static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` with its output in files (a full pipe would block it), killing it with
    /// SIGKILL when it outlives `timeout` (SIGTERM may be blocked in a child of a test).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                    timeout: TimeInterval = 300) throws -> Result {
        let directory = try TemporaryDirectory()
        let outURL = directory.url.appendingPathComponent("stdout")
        let errURL = directory.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if let environment { process.environment = environment }
        try process.run()
        if !Waiting.exit(of: process, timeout: timeout) {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s")
        }
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `executable` under GNU time (Debian package `time`) and returns its exit status,
    /// peak resident set size in KiB (`%M`) and elapsed seconds. GNU time forks a small child
    /// that execs the program, so `%M` is that program's own peak. (`wait4` on a child that
    /// `posix_spawn` started is not: Glibc spawns with CLONE_VM, and Linux carries the spawning
    /// process's high-water mark over the `exec`, so every child would report the test
    /// process's size.)
    public static func peakRSS(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, kilobytes: Int, seconds: Double) {
        let directory = try TemporaryDirectory()
        let report = directory.path("time.txt")
        let result = try tool("time", ["-f", "%M %e", "-o", report, executable.path] + arguments, package: "time")
        let fields = try String(contentsOfFile: report, encoding: .utf8)
            .split(separator: "\n").last.map { $0.split(separator: " ") } ?? []
        guard fields.count == 2, let kilobytes = Int(fields[0]), let seconds = Double(fields[1]) else {
            throw Failure(description: "unexpected GNU time report: \(fields)")
        }
        return (result.status, kilobytes, seconds)
    }
}
