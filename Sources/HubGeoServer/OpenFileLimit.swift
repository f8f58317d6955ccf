#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The number of files this process may have open (`ulimit -n`), which bounds how many
/// connections `serve` can hold: each is a descriptor, besides the database's and the
/// listening socket's.
package enum OpenFileLimit {
    /// Descriptors `serve` needs before its first connection (standard streams, the database, its
    /// `-wal` and `-shm` for each reader of the pool, the event loops' epoll and eventfd pairs, the
    /// listening socket), with room for a few connections: below this it cannot work.
    package static let minimumForServing: rlim_t = 64

    #if canImport(Glibc)
    private static let resourceOpenFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceOpenFiles = RLIMIT_NOFILE
    #endif

    /// The soft limit, nil when it cannot be read or is unlimited.
    package static var current: rlim_t? {
        var limit = rlimit()
        guard getrlimit(resourceOpenFiles, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return limit.rlim_cur
    }

    /// Throws, in words, when the limit is too low for `serve` to work with.
    package static func checkForServing() throws(LimitError) {
        if let current, current < minimumForServing { throw LimitError(limit: current) }
    }

    /// The limit of open files is too low to serve.
    package struct LimitError: LocalizedError, CustomStringConvertible {
        package var limit: rlim_t
        package var description: String { errorDescription ?? "" }
        package var errorDescription: String? {
            "this process may open only \(limit) files (`ulimit -n`); serve needs at least \(OpenFileLimit.minimumForServing) "
                + "(the database, the listening socket and one per connection). Raise it, for instance with `ulimit -n 1024`, and start serve again."
        }
    }
}
