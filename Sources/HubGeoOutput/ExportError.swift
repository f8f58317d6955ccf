#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error writing an output: an export, a map page, an archive of tiles.
public struct ExportError: Error, CustomStringConvertible, Sendable {
    /// The error in words.
    public var description: String

    /// An error that says `description`.
    public init(_ description: String) {
        self.description = description
    }

    package static func system(_ what: String, path: String? = nil, errno code: Int32 = errno) -> ExportError {
        let reason = String(cString: strerror(code))
        return ExportError(path.map { "cannot \(what) \($0): \(reason)" } ?? "cannot \(what): \(reason)")
    }
}
