import Foundation

/// Writes a folder of tiles, `z/x/y.mvt` (uncompressed MVT, as a static web server sends files
/// as they are) and `metadata.json` (``TileSetMetadata/json``), for any static host. Written in a
/// temporary folder beside `path` and renamed into place when complete. An existing folder at
/// `path` is replaced only when it is empty or a tile folder hubgeo wrote (its metadata.json says
/// so); anything else there is refused, never deleted.
public final class TileFolderWriter: TileArchiveWriter {
    /// The folder's path.
    public let path: String
    private let temporaryPath: String
    private var open = true
    private var madeDirectories: Set<Int> = []

    /// A writer of a `z/x/y.mvt` folder at `path`, built beside it and renamed into place by ``finish(_:)``.
    public init(path: String) throws {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.path = path
        try Self.checkReplaceable(path)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/.\(url.lastPathComponent).hubgeo-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw TileArchiveError.system("create a folder in", path: directory)
        }
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(temporaryPath, 0o755)
    }

    /// Refuses a `path` that is something other than nothing, an empty folder or a hubgeo tile folder.
    static func checkReplaceable(_ path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw TileArchiveError("cannot write a tile folder at \(path): it exists and is not a folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if entries.isEmpty { return }
        let metadata = (try? String(contentsOfFile: path + "/metadata.json", encoding: .utf8)) ?? ""
        let ownNames = entries.allSatisfy { $0 == "metadata.json" || ($0.allSatisfy(\.isNumber) && !$0.isEmpty) }
        guard ownNames, metadata.contains("\"generator\":\"hubgeo\"") else {
            throw TileArchiveError("cannot write a tile folder at \(path): it holds other files; choose another name or remove it")
        }
    }

    /// How the tiles handed to ``add(_:stored:)`` are encoded.
    public var tileEncoding: TileEncoding { .identity }

    /// Adds one tile already encoded as ``tileEncoding`` says.
    public func add(_ tile: TileAddress, stored mvt: [UInt8]) throws {
        try add(tile, mvt)
    }

    /// Adds one tile's MVT.
    public func add(_ tile: TileAddress, _ mvt: [UInt8]) throws {
        let column = "\(temporaryPath)/\(tile.z)/\(tile.x)"
        let key = tile.z << 32 | tile.x
        if !madeDirectories.contains(key) {
            try FileManager.default.createDirectory(atPath: column, withIntermediateDirectories: true)
            madeDirectories.insert(key)
        }
        try write(mvt, to: "\(column)/\(tile.y).mvt")
    }

    private func write(_ bytes: [UInt8], to file: String) throws {
        let descriptor = Glibc.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TileArchiveError.system("create", path: file) }
        defer { close(descriptor) }
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if result < 0 {
                if errno == EINTR { continue }
                throw TileArchiveError.system("write", path: file)
            }
            done += result
        }
    }

    /// Writes the metadata and publishes the folder.
    public func finish(_ metadata: TileSetMetadata) throws {
        guard open else { throw TileArchiveError("\(path) was already closed") }
        do {
            try write(Array((metadata.json + "\n").utf8), to: temporaryPath + "/metadata.json")
            try Self.checkReplaceable(path)
            var status = stat()
            if lstat(path, &status) == 0 {
                // Swap: the old folder goes aside, the new one takes its name, the old one is removed.
                let aside = temporaryPath + ".old"
                guard rename(path, aside) == 0 else { throw TileArchiveError.system("move aside", path: path) }
                guard rename(temporaryPath, path) == 0 else {
                    rename(aside, path)
                    throw TileArchiveError.system("rename \(temporaryPath) to", path: path)
                }
                try? FileManager.default.removeItem(atPath: aside)
            } else {
                guard rename(temporaryPath, path) == 0 else { throw TileArchiveError.system("rename \(temporaryPath) to", path: path) }
            }
            open = false
        } catch {
            abandon()
            throw error
        }
    }

    /// Removes the unfinished folder.
    public func abandon() {
        guard open else { return }
        open = false
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    deinit {
        abandon()
    }
}
