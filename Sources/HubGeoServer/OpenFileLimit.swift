import CPOSIX
import Foundation

/// The number of files this process may have open (`ulimit -n`), which bounds how many
/// connections `serve` can hold: each is a descriptor, besides the database's and the
/// listening socket's.
package enum OpenFileLimit {
    /// Descriptors `serve` needs before its first connection (standard streams, the database, its
    /// `-wal` and `-shm` for each reader of the pool, the event loops' epoll and eventfd pairs, the
    /// listening socket), with room for a few connections: below this it cannot work.
    package static let minimumForServing: UInt64 = 64

    /// The soft limit, nil when it cannot be read or is unlimited.
    package static var current: UInt64? {
        var limit: UInt64 = 0
        guard hubgeo_open_file_limit(&limit) else { return nil }
        return limit
    }

    /// Throws, in words, when the limit is too low for `serve` to work with.
    package static func checkForServing() throws(LimitError) {
        if let current, current < minimumForServing { throw LimitError(limit: current) }
    }

    /// The limit of open files is too low to serve.
    package struct LimitError: LocalizedError, CustomStringConvertible {
        package var limit: UInt64
        package var description: String { errorDescription ?? "" }
        package var errorDescription: String? {
            "this process may open only \(limit) files (`ulimit -n`); serve needs at least \(OpenFileLimit.minimumForServing) "
                + "(the database, the listening socket and one per connection). Raise it, for instance with `ulimit -n 1024`, and start serve again."
        }
    }
}
