import CPOSIX
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A large file read through `mmap` instead of into memory: its pages come from the page cache
/// on demand, and a reader that is done with a part can let the kernel reclaim it
/// (``releasePages(before:)``), so that a file of hundreds of megabytes read from start to end
/// never occupies more than a small window of resident memory.
package enum MappedFile {
    /// Files at least this large are mapped; smaller ones are simply read.
    package static let threshold = 4 * 1024 * 1024

    /// The file's bytes as `Data` backed by a read-only private mapping (unmapped when the
    /// `Data` goes away), or nil when mapping fails (the caller then reads normally).
    package static func map(_ url: URL) -> Data? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = hubgeo_file_status()
        guard hubgeo_fstat(fd, &status) == 0, status.size > 0 else { return nil }
        let size = Int(status.size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in
            _ = munmap(pointer, count)
        })
    }

    /// Takes the pages of `bytes` before `offset` out of this process's resident memory, leaving
    /// them in the page cache (`MADV_DONTNEED`): touched again, they are mapped again from there,
    /// without reading the disk. Only for bytes of a mapping made by ``map(_:)``: on ordinary
    /// memory `MADV_DONTNEED` discards the contents.
    package static func dropPages(ofMapping bytes: UnsafeRawBufferPointer, before offset: Int) {
        guard let base = bytes.baseAddress, offset > 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + min(offset, bytes.count)) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_DONTNEED)
    }

    /// Asks the kernel to reclaim the pages of `bytes` before `offset`. Harmless for memory that
    /// is not a file mapping: `MADV_PAGEOUT` only drops pages that can be read back (clean file
    /// pages); anonymous memory without swap stays as it is, contents intact.
    package static func releasePages(of bytes: UnsafeBufferPointer<UInt8>, before offset: Int) {
        guard let base = bytes.baseAddress, offset > 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + min(offset, bytes.count)) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, 21 /* MADV_PAGEOUT, Linux 5.4 */)
    }
}
