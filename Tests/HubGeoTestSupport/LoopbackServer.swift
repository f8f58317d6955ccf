import CPOSIX
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP server for tests: runs `loopback_server.py` (next to this file)
/// with `python3` from PATH, bound to 127.0.0.1 on an OS-chosen port.
///
/// Each server has its own temporary directory (script, request log) and its own
/// lifetime, after which the Python process exits by itself; it also exits when
/// the test process dies (stdin EOF). ``stop()`` (or deinit) kills it with SIGKILL.
package final class LoopbackServer: @unchecked Sendable {
    // @unchecked: the mutable state (`process`, `stopped`) is guarded by `lock`.

    /// One scripted response; see `loopback_server.py` for the semantics.
    package struct Response: Encodable, Sendable {
        package enum Action: String, Encodable, Sendable { case reset, truncate, hang }

        package var status: Int?
        package var headers: [String: String]?
        package var body: String?
        package var bodyFile: String?
        package var gzip: Bool?
        package var delay: Double?
        package var redirectTo: String?
        package var action: Action?
        /// Rule mode: only for requests whose query has these parameter values.
        package var when: [String: String]?
        /// Rule mode: used at most this many times, then the next matching response.
        package var times: Int?

        package init(status: Int? = nil, headers: [String: String]? = nil, body: String? = nil,
             bodyFile: String? = nil, gzip: Bool? = nil, delay: Double? = nil,
             redirectTo: String? = nil, action: Action? = nil,
             when: [String: String]? = nil, times: Int? = nil) {
            self.when = when
            self.times = times
            self.status = status
            self.headers = headers
            self.body = body
            self.bodyFile = bodyFile
            self.gzip = gzip
            self.delay = delay
            self.redirectTo = redirectTo
            self.action = action
        }

        package static func action(_ action: Action) -> Response { Response(action: action) }

        package enum CodingKeys: String, CodingKey {
            case status, headers, body, gzip, delay, action, when, times
            case bodyFile = "body_file"
            case redirectTo = "redirect_to"
        }
    }

    /// One logged request.
    package struct Request: Decodable, Sendable {
        /// Server-side monotonic time (seconds) when the request arrived.
        package var t: Double
        package var method: String
        package var path: String
        package var query: String
        /// Request headers with lower-cased names.
        package var headers: [String: String]
        /// The client's TCP port: equal ports mean one reused connection.
        package var clientPort: Int
        /// The status answered (static files and controlled paths only).
        package var status: Int?

        package enum CodingKeys: String, CodingKey {
            case t, method, path, query, headers, status
            case clientPort = "client_port"
        }

        /// True when the request asked whether the document changed (`If-None-Match` or `If-Modified-Since`).
        package var isConditional: Bool { headers["if-none-match"] != nil || headers["if-modified-since"] != nil }
    }

    package enum StartError: Error, CustomStringConvertible {
        case launch(String)
        case noPort(String)

        package var description: String {
            switch self {
            case .launch(let detail): "Could not start loopback_server.py: \(detail)"
            case .noPort(let detail): "loopback_server.py did not report its port: \(detail)"
            }
        }
    }

    /// `http://127.0.0.1:PORT`
    package let baseURL: URL
    package let port: Int
    /// Temporary directory holding this server's script and log.
    package let directory: URL
    private let logURL: URL
    /// Read by the server at every request: paths answered with a given response (see ``control(_:)``).
    private let controlURL: URL
    private let process: Process
    private let stdinPipe: Pipe
    private let lock = NSLock()
    private var stopped = false

    package static let scriptURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("loopback_server.py")

    /// Starts a server serving `root` (static files) and/or a `script`
    /// (request path or "*" → responses consumed in order, the last repeating).
    /// Throws with a clear message when the port line does not arrive in
    /// `startTimeout` seconds.
    package init(root: URL? = nil, script: [String: [Response]]? = nil,
         lifetime: TimeInterval = 60, startTimeout: TimeInterval = 10, staticDelay: TimeInterval = 0) throws {
        let fileManager = FileManager.default
        directory = fileManager.temporaryDirectory
            .appendingPathComponent("hubgeo-loopback-\(UUID().uuidString)")
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        logURL = directory.appendingPathComponent("requests.jsonl")
        controlURL = directory.appendingPathComponent("control.json")

        var arguments = [Self.scriptURL.path, "--log", logURL.path,
                         "--lifetime", String(lifetime), "--exit-on-stdin-eof",
                         "--control", controlURL.path]
        if let root { arguments += ["--root", root.path] }
        if staticDelay > 0 { arguments += ["--static-delay", String(staticDelay)] }
        if let script {
            let scriptFile = directory.appendingPathComponent("script.json")
            try JSONEncoder().encode(script).write(to: scriptFile)
            arguments += ["--script", scriptFile.path]
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdout = Pipe()
        let stdinPipe = Pipe()
        process.standardOutput = stdout
        process.standardInput = stdinPipe
        do {
            try process.run()
        } catch {
            try? fileManager.removeItem(at: directory)
            throw StartError.launch("\(error)")
        }
        self.process = process
        self.stdinPipe = stdinPipe

        do {
            let line = try Self.readFirstLine(from: stdout.fileHandleForReading.fileDescriptor,
                                              timeout: startTimeout)
            guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)), port > 0 else {
                throw StartError.noPort("unexpected first line \"\(line)\"")
            }
            self.port = port
            baseURL = URL(string: "http://127.0.0.1:\(port)")!
        } catch {
            kill(process.processIdentifier, SIGKILL)
            try? fileManager.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        stop()
    }

    /// A URL on this server, e.g. `url("/__big?bytes=10")`.
    package func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery)!
    }

    /// From now on, each of these paths answers its response instead of its script or static file
    /// (a fault injected between two runs, say); an empty dictionary ends that.
    package func control(_ responses: [String: Response]) throws {
        let temporary = directory.appendingPathComponent("control.json.new")
        try JSONEncoder().encode(responses).write(to: temporary)
        _ = rename(temporary.path, controlURL.path)  // atomic: the server never reads half a file
    }

    /// The requests logged so far for one path.
    package func requests(path: String) throws -> [Request] {
        try requests().filter { $0.path == path }
    }

    /// The requests logged so far, in arrival order.
    package func requests() throws -> [Request] {
        guard let data = try? Data(contentsOf: logURL) else { return [] }
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map {
            try decoder.decode(Request.self, from: Data($0))
        }
    }

    /// Kills the server (SIGKILL: a child of a test process may have SIGTERM
    /// blocked) and removes its directory. Idempotent.
    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        try? stdinPipe.fileHandleForWriting.close()
        // Foundation reaps the child; give it a moment so no zombie lingers.
        _ = Waiting.exit(of: process, timeout: 2)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Reads up to the first newline, polling so a silent child cannot block us.
    private static func readFirstLine(from fd: Int32, timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw StartError.noPort("no \"PORT n\" line within \(Int(timeout)) s (is python3 on PATH?)")
            }
            let ready = hubgeo_poll_readable(fd, Int32(min(left, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else {
                throw StartError.noPort("stdout closed before a \"PORT n\" line (did the script crash?)")
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// A loopback port that refuses connections: a socket bound to 127.0.0.1 but
/// never listening, held open so no one else can take the port meanwhile.
package final class RefusingPort {
    package let port: Int
    private let fd: Int32

    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var port: Int32 = 0
        guard hubgeo_bind_loopback(fd, &port) == 0 else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.fd = fd
        self.port = Int(port)
    }

    deinit { close(fd) }
}
