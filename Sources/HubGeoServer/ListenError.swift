import Foundation

extension MapServer {
    /// The server cannot listen on its address and port: in use, not allowed, or not an address
    /// of this machine. The message names both and says what to do.
    public struct ListenError: LocalizedError, Sendable {
        public var host: String
        public var port: Int
        /// The `errno` of the failed `bind`.
        public var code: Int32

        public var errorDescription: String? {
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            return switch code {
            case EADDRINUSE:
                "cannot listen on \(address): the address is already in use (another hubgeo serve, or another server?). "
                    + "Choose another port with --port (0 picks a free one), or stop what listens there."
            case EMFILE, ENFILE:
                "cannot listen on \(address): too many open files (this process may open \(OpenFileLimit.current.map(String.init) ?? "few"); "
                    + "`ulimit -n` shows the limit). Raise it, for instance with `ulimit -n 1024`, and start serve again."
            case EACCES:
                "cannot listen on \(address): permission denied (ports below 1024 need privileges). Choose another port with --port."
            default:
                "cannot listen on \(address): \(String(cString: strerror(code))). Choose an address of this machine with --host."
            }
        }
    }
}
