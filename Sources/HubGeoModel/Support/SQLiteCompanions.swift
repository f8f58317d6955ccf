#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files SQLite keeps beside a database `NAME` (`NAME-wal`, `NAME-shm`, `NAME-journal`): the
/// one rule for the database's owner (which removes them with a staged database) and the output
/// publisher (which never writes over them).
package enum SQLiteCompanions {
    /// The companions by the suffix of their name, with what each is.
    package static let all: [(suffix: String, role: String)] = [
        ("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal"),
    ]

    /// The files SQLite takes as the companions of the database at `path`, whether they exist yet
    /// or not: named after the path with every symbolic link resolved (as SQLite's unix VFS
    /// names them; measured with SQLite 3.40), and after the path as given. A file written under
    /// one of these names would be read by SQLite as the database's journal.
    package static func paths(of path: String) -> [(path: String, role: String)] {
        let bases = [path, sqliteName(of: path)]
        return bases.flatMap { base in all.map { (base + $0.suffix, $0.role) } }
    }

    /// `path` with every symbolic link resolved, as SQLite names the companions; `path` when it cannot be resolved.
    package static func sqliteName(of path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
