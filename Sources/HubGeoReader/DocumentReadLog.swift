import Foundation
import HubGeoJSON
import HubGeoModel

/// What a load read, for an import to record: every document asked for (its location and the
/// digest of its bytes, or that it did not exist) and every folder listed for Level 2 files (the
/// digest of the names), in reading order. A load is a function of these answers and of what it
/// was asked (root, Level 2 files, include rule): when each answer is the same again, so is
/// everything the load would hand on, which is how an unchanged re-import reads no document
/// (`Importer`).
///
/// The digest is the 64-bit FNV-1a of the bytes (``FNV1a``): any change of a single byte always
/// changes it, since each step of FNV-1a is a bijection of its
/// state; 64 bits make an accidental match of two different documents about one in 2^64.
/// Measured on the 142.7 MB Level 1 file of 200,000 generated organizations, on a machine loaded
/// with other compilers (load 9 on 2 cores, wall time): FNV-1a 0.77 s, zlib's CRC-32 0.10 s. CRC-32
/// is faster but has 32 bits, and would bring zlib into the reader; with FNV-1a the whole unchanged
/// re-import of that file takes 0.18 s of user CPU time in the release build (0.06 of ogr2ogr's
/// import), and a new import 0.12-0.16 s more than without the digests (2.8 s against 2.7 s).
package final class DocumentReadLog: @unchecked Sendable {
    // @unchecked: `entries` and `seen` are guarded by `lock` (a reader may be shared by threads).

    /// One answer a load had from its reader.
    package struct Entry: Hashable, Sendable {
        /// The document read, or the document beside which Level 2 files were listed.
        package var location: DocumentLocation
        /// The bytes' digest (of the names listed); nil: the document does not exist.
        package var digest: UInt64?
        package var kind: Kind

        /// A document read, or a folder listed (``DocumentReader/level2Files(besides:)``).
        package enum Kind: String, Sendable {
            case document, listing
        }
    }

    /// The digest `reader` gives the document at `location` (`.document`), or the Level 2 files
    /// beside it (`.listing`), now; nil: the document does not exist. Throws what the reader throws.
    package static func currentDigest(of kind: Entry.Kind, _ location: DocumentLocation, reading reader: DocumentReader) throws -> UInt64? {
        switch kind {
        case .document: try reader.digest(location)
        case .listing: digest(listing: reader.level2Files(besides: location))
        }
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var seen: Set<Entry> = []

    package init() {}

    /// The answers, in reading order (each once).
    package var answers: [Entry] { lock.withLock { entries } }

    func noteRead(_ location: DocumentLocation, digest: UInt64?) {
        note(Entry(location: location, digest: digest, kind: .document))
    }

    func noteListing(_ location: DocumentLocation, _ files: [DocumentLocation]) {
        note(Entry(location: location, digest: Self.digest(listing: files), kind: .listing))
    }

    private func note(_ entry: Entry) {
        lock.withLock {
            if seen.insert(entry).inserted { entries.append(entry) }
        }
    }

    /// The FNV-1a digest of a document's bytes. Those of a mapped file (`mapped`) are hashed 4 MiB
    /// at a time, each part's pages dropped from the process's memory once hashed (they stay in the
    /// page cache for the parser): hashing the whole mapping at once made the import of a 142.7 MB
    /// file peak at 188 MB instead of 127 MB.
    package static func digest(_ data: Data, mapped: Bool = false) -> UInt64 {
        data.withUnsafeBytes { bytes in
            guard mapped else { return FNV1a.hash(bytes) }
            var hash = FNV1a()
            let part = 4 << 20
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + part, bytes.count)
                hash.add(bytesOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                MappedFile.dropPages(ofMapping: bytes, before: end)
                offset = end
            }
            return hash.value
        }
    }

    /// The digest of a listing: each location's description as a field, in order.
    static func digest(listing files: [DocumentLocation]) -> UInt64 {
        var hash = FNV1a()
        for file in files { hash.addField(file.description) }
        hash.addField(nil as String?)
        return hash.value
    }
}
