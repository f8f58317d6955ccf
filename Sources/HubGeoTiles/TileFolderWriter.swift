import CPOSIX
import Foundation
import HubGeoModel
import HubGeoOutput

/// Writes a folder of tiles, `z/x/y.mvt` (uncompressed MVT, as a static web server sends files
/// as they are) and `metadata.json` (``TileSetMetadata/json``), for any static host. Built in the
/// private folder hubgeo's publisher hands out (`StagedOutput`), beside `path`, and swapped into
/// place when complete. An existing folder at `path` is replaced only when it is empty or its whole
/// tree is a tile folder hubgeo wrote (numbered folders of numbered folders of `NUMBER.mvt`, and a
/// `metadata.json` that says so); anything else there is refused, and no file that is not such a
/// tile is ever deleted.
public final class TileFolderWriter: TileArchiveWriter {
    /// The folder's path.
    public let path: String
    private let output: StagedOutput
    private var open = true
    private var madeDirectories: Set<Int> = []

    /// A writer of a `z/x/y.mvt` folder at `path`, built beside it and published by ``finish(_:)``.
    /// Refuses at once what cannot be replaced (a file, a folder of other files, the databases
    /// `protectedPaths` and the files SQLite keeps beside them).
    public init(path: String, protecting protectedPaths: [String] = []) throws {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.path = path
        let output = try StagedOutput(path: path, kind: .folder, protecting: protectedPaths, removeFolder: Self.removeTiles)
        self.output = output
        if let destination = output.destination { try Self.checkReplaceable(destination, as: path) }
    }

    /// Refuses a `folder` (named `path` in messages) that holds anything but a hubgeo tile folder's tree.
    static func checkReplaceable(_ folder: String, as path: String) throws {
        var status = hubgeo_file_status()
        guard hubgeo_lstat(folder, &status) == 0 else { return }
        guard status.mode & S_IFMT == S_IFDIR else {
            throw TileArchiveError("cannot write a tile folder at \(path): it exists and is not a folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if entries.isEmpty { return }
        let metadata = (try? String(contentsOfFile: folder + "/metadata.json", encoding: .utf8)) ?? ""
        var foreign: String?
        forEachEntry(of: folder) { relative, isOwn in
            if !isOwn && foreign == nil { foreign = relative }
        }
        if let foreign {
            throw TileArchiveError("cannot write a tile folder at \(path): it holds other files (\(foreign)); choose another name or remove it")
        }
        guard metadata.contains("\"generator\":\"hubgeo\"") else {
            throw TileArchiveError("cannot write a tile folder at \(path): it holds other files (its metadata.json is not hubgeo's); "
                                   + "choose another name or remove it")
        }
    }

    /// Calls `body` with every entry of a tile folder's tree (its path inside `folder`) and whether it
    /// is one a tile folder holds: `metadata.json` and `Z/X/Y.mvt` files, `Z` and `Z/X` folders (numbers);
    /// the entries of a folder that is not one are not visited. Children come before their folder.
    static func forEachEntry(of folder: String, _ body: (String, Bool) -> Void) {
        func isNumber(_ name: String) -> Bool { !name.isEmpty && name.utf8.allSatisfy { (48...57).contains($0) } }
        func visit(_ relative: String, depth: Int) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? folder : folder + "/" + relative)) ?? []
            for name in entries.sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = hubgeo_file_status()
                guard hubgeo_lstat(folder + "/" + child, &status) == 0 else { continue }
                let kind = status.mode & S_IFMT
                if depth < 2 && kind == S_IFDIR && isNumber(name) {
                    visit(child, depth: depth + 1)
                    body(child, true)
                } else {
                    let isOwnFile = kind == S_IFREG && (depth == 0 ? name == "metadata.json"
                        : depth == 2 && name.hasSuffix(".mvt") && isNumber(String(name.dropLast(4))))
                    body(child, isOwnFile)
                }
            }
        }
        visit("", depth: 0)
    }

    /// Removes the tiles, `metadata.json` and the numbered folders of a tile folder, then the folder
    /// itself: whatever else is there (a user's file) stays, and so do the folders that hold it.
    static func removeTiles(_ folder: String) {
        forEachEntry(of: folder) { relative, isOwn in
            guard isOwn else { return }
            let path = folder + "/" + relative
            if unlink(path) != 0 { rmdir(path) }
        }
        rmdir(folder)
    }

    /// How the tiles handed to ``add(_:stored:)`` are encoded.
    public var tileEncoding: TileEncoding { .identity }

    /// Adds one tile already encoded as ``tileEncoding`` says.
    public func add(_ tile: TileAddress, stored mvt: [UInt8]) throws {
        try add(tile, mvt)
    }

    /// Adds one tile's MVT.
    public func add(_ tile: TileAddress, _ mvt: [UInt8]) throws {
        let column = "\(output.workPath)/\(tile.z)/\(tile.x)"
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
        let failure = bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor) }
        if failure != 0 {
            errno = failure
            throw TileArchiveError.system("write", path: file)
        }
    }

    /// Writes the metadata and publishes the folder (not once SIGINT or SIGTERM arrived: the
    /// publisher checks), after checking again that what it replaces is still a tile folder.
    public func finish(_ metadata: TileSetMetadata) throws {
        guard open else { throw TileArchiveError("\(path) was already closed") }
        do {
            try write(Array((metadata.json + "\n").utf8), to: output.workPath + "/metadata.json")
            if let destination = output.destination { try Self.checkReplaceable(destination, as: path) }
            try output.commit()
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
        output.abandon()
    }

    deinit {
        abandon()
    }
}
