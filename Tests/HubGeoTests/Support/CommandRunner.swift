import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `hubgeo` binary and external tools (GDAL, xmllint) like a user would.
enum CommandRunner {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `hubgeo` executable built with the tests: next to the test bundle, else in a
    /// scratch directory of the package.
    static let hubgeo: URL = {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundleDirectory.appendingPathComponent("hubgeo")]
            + [".build-export", ".build"].map { TestPaths.packageRoot.appendingPathComponent("\($0)/debug/hubgeo") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs hubgeo with `arguments`.
    static func hubgeo(_ arguments: [String]) throws -> Result {
        try run(hubgeo, arguments)
    }

    /// Runs a tool found on PATH; fails with a hint when it is not installed.
    static func tool(_ name: String, _ arguments: [String], package: String) throws -> Result {
        guard let url = which(name) else {
            throw Failure(description: "\(name) is not installed: apt-get install \(package)")
        }
        return try run(url, arguments)
    }

    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ executable: URL, _ arguments: [String]) throws -> Result {
        let directory = try TestPaths.temporaryDirectory()
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
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `executable` with its output sent to /dev/null and returns its exit status and peak
    /// resident set size in KiB, from `wait4` on that very child (not RUSAGE_CHILDREN, which
    /// would mix in other tests' children).
    static func peakRSS(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(executable.path): \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4: \(errno)") }
        }
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, Int(usage.ru_maxrss))
    }
}
