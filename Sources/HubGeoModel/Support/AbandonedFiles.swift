import CPOSIX
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The private files hubgeo writes beside a target and renames or links into place when done
/// (a new database's `.NAME.PID.RANDOM.staging`, an output's `.NAME.PID.hubgeo-XXXXXX`), left
/// behind when the process that wrote them was killed (SIGKILL, a power cut).
///
/// One rule says when such a file is abandoned and may be removed by the next write to the same
/// target: its name matches the writer's pattern exactly, it is a regular file (not a link) owned
/// by this user, and no process with the PID in its name runs (`kill(2)` says `ESRCH`). A PID
/// reused by another process keeps the file until that process ends: keeping a stale file costs
/// space, removing a live one would fail another writer. A file written before names held a PID
/// is abandoned once it was last modified more than ``unrecordedAge`` ago.
package enum AbandonedFiles {
    /// Who wrote a file, as its name says.
    package enum Writer: Equatable {
        /// The process with this id.
        case process(pid_t)
        /// Not recorded (a name from an older hubgeo).
        case unrecorded
    }

    /// How long a file whose writer is not recorded stays untouched before it counts as abandoned:
    /// a writer modifies its file all the time (the largest export measured takes seconds).
    package static let unrecordedAge: TimeInterval = 3600

    /// Calls `remove` with the path of every abandoned file in `directory` ("" is the current
    /// one) whose name `writer` recognises; with `folders`, of every abandoned folder instead (a
    /// folder of tiles), by the same rule.
    package static func sweep(in directory: String, folders: Bool = false, writer: (String) -> Writer?, remove: (String) -> Void) {
        let folder = directory.isEmpty ? "." : directory
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries {
            guard let written = writer(entry) else { continue }
            let path = folder + "/" + entry
            var status = hubgeo_file_status()
            guard hubgeo_lstat(path, &status) == 0, status.mode & S_IFMT == (folders ? S_IFDIR : S_IFREG), status.uid == getuid() else { continue }
            switch written {
            case .process(let pid):
                guard pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            case .unrecorded:
                guard Date().timeIntervalSince1970 - TimeInterval(status.modified_seconds) > unrecordedAge else { continue }
            }
            remove(path)
        }
    }
}
