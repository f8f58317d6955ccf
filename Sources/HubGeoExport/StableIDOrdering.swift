import HubGeoDatabase
import HubGeoModel
#if canImport(Glibc)
import Glibc
#endif

/// Export records taken in the order the table stores them and handed on in stable id order,
/// in bounded memory: an export of a whole table reads it once, page after page, instead of
/// seeking every row and its remarks through the stable id index.
///
/// Why: the stable id is a hash, so the index visits the rows at random, and SQLite's page cache
/// holds a twentieth of a database of 200,000 organizations. Measured on 200,000 organizations of
/// `generate.py --shape towns` (215 MB): the walk through the index made 678,786 `pread64` calls
/// (each page read some 15 times) and took 1.36 s; read in storage order and put in order here,
/// 66,745 calls and 0.68 s.
///
/// How: an external merge sort. Records are kept in memory up to ``memoryBudget`` bytes; past
/// that, the ones kept are sorted and appended to a ``ScratchFile`` as one sorted run. ``drain(_:)``
/// sorts what is in memory and, when there are runs, merges them all, reading each through a
/// small window. Memory stays bounded whatever the ids are (sorted, all alike, or hashes).
struct StableIDOrdering {
    /// The bytes of records kept in memory before they go to the scratch file as a sorted run.
    static let memoryBudget = 4 << 20
    /// The bytes read from a run at a time while merging.
    static let windowSize = 32 << 10

    /// Records in the form ``ExportRecord/append(to:)`` writes, one after the other.
    private var pending: [UInt8] = []
    /// Where each pending record starts, and (once sorted, for ``spill()``) where it ends.
    private var starts: [Int] = []
    private var ends: [Int] = []
    /// The sorted runs in the scratch file: where each starts and how many bytes it has.
    private var runs: [(offset: Int, count: Int)] = []
    private var scratch: ScratchFile?
    /// Where the scratch file goes; nil: ``ScratchFile``'s default (`$TMPDIR`, else `/tmp`).
    private let scratchDirectory: String?
    private let memoryBudget: Int
    /// How many records were added.
    private(set) var count = 0

    init(scratchDirectory: String? = nil, memoryBudget: Int = Self.memoryBudget) {
        self.scratchDirectory = scratchDirectory
        self.memoryBudget = memoryBudget
    }

    /// How many sorted runs went to the scratch file.
    var runCount: Int { runs.count }

    mutating func add(_ record: ExportRecord) throws {
        // Room for the budget and one more record, once: grown by doubling, the buffer would
        // take up to twice the budget.
        if pending.capacity == 0 { pending.reserveCapacity(memoryBudget + 64 << 10) }
        starts.append(pending.count)
        record.append(to: &pending)
        count += 1
        if pending.count >= memoryBudget { try spill() }
    }

    /// Calls `body` with every record added, in stable id order (bytewise, as SQLite's BINARY
    /// collation; equal ids keep the order they were added in). The record is reused, so `body`
    /// must not keep it.
    mutating func drain(_ body: (ExportRecord) throws -> Void) throws {
        defer {
            pending = []
            starts = []
            ends = []
            runs = []
            scratch = nil
        }
        var record = ExportRecord()
        guard !runs.isEmpty else {
            sortPending()
            try pending.withUnsafeBufferPointer { buffer in
                for start in starts {
                    try record.withStored(at: start, in: buffer, body)
                }
            }
            return
        }
        if !starts.isEmpty { try spill() }
        var readers = try runs.map { try RunReader(scratch!, run: $0) }
        // The readers whose record comes first, as a binary heap by (id, run).
        var heap = Array(readers.indices).filter { readers[$0].hasRecord }
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let order = readers[a].window.withUnsafeBufferPointer { first in
                readers[b].window.withUnsafeBufferPointer { second in
                    Self.compare(ExportRecord.storedID(at: readers[a].start, in: first), ExportRecord.storedID(at: readers[b].start, in: second))
                }
            }
            return order != 0 ? order < 0 : a < b
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var first = parent
                if left < heap.count, precedes(heap[left], heap[first]) { first = left }
                if right < heap.count, precedes(heap[right], heap[first]) { first = right }
                if first == parent { return }
                heap.swapAt(parent, first)
                parent = first
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        while let first = heap.first {
            try readers[first].withRecord(&record, body)
            try readers[first].advance()
            if !readers[first].hasRecord {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// Sorts the pending records' starts by stable id; equal ids by start, which is the order they
    /// were added in; `ends` follow them. The comparisons use the id's first 8 bytes as one number
    /// (zero-padded, which orders as the bytes do) and look at the bytes only when those are equal:
    /// comparing the bytes each time took 7.5 % of an export. A record ends where the next one added
    /// starts, so its end is taken from there rather than found by reading its fields' lengths again
    /// (which took 5 to 6 % of an export's CPU: release build, 200,000 organizations, perf).
    private mutating func sortPending() {
        pending.withUnsafeBufferPointer { buffer in
            var keys = starts.indices.map { position -> (prefix: UInt64, start: Int, end: Int) in
                let start = starts[position]
                let id = ExportRecord.storedID(at: start, in: buffer)
                var prefix: UInt64 = 0
                for index in 0..<8 { prefix = prefix << 8 | UInt64(index < id.count ? id[index] : 0) }
                return (prefix, start, position + 1 < starts.count ? starts[position + 1] : buffer.count)
            }
            keys.sort { a, b in
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                let order = Self.compare(ExportRecord.storedID(at: a.start, in: buffer), ExportRecord.storedID(at: b.start, in: buffer))
                return order != 0 ? order < 0 : a.start < b.start
            }
            ends.removeAll(keepingCapacity: true)
            for index in keys.indices {
                starts[index] = keys[index].start
                ends.append(keys[index].end)
            }
        }
    }

    /// Writes the pending records, sorted, to the scratch file as one run, each after its length,
    /// through a buffer of ``windowSize`` (a copy of the whole run would double the memory).
    private mutating func spill() throws {
        if scratch == nil { scratch = try ScratchFile(in: scratchDirectory) }
        let scratch = scratch!
        sortPending()
        var chunk: [UInt8] = []
        chunk.reserveCapacity(Self.windowSize + 16)
        var runStart: Int?
        func write() throws {
            let offset = try chunk.withUnsafeBytes { try scratch.append($0) }
            if runStart == nil { runStart = offset }
            chunk.removeAll(keepingCapacity: true)
        }
        try pending.withUnsafeBufferPointer { buffer in
            for (start, end) in zip(starts, ends) {
                ExportRecord.appendLength(end - start, to: &chunk)
                if chunk.count + (end - start) > Self.windowSize {
                    try write()
                    _ = try scratch.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<end])))
                } else {
                    chunk.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
                }
            }
        }
        if !chunk.isEmpty { try write() }
        if let runStart { runs.append((runStart, scratch.size - runStart)) }
        pending.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Bytewise order of two ids, then the shorter first: -1, 0 or 1.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        if order != 0 { return order < 0 ? -1 : 1 }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    /// Reads one sorted run through a window: the current record is always whole in it.
    private struct RunReader {
        let scratch: ScratchFile
        /// The run's bytes not yet in the window.
        var next: Int
        let end: Int
        private(set) var window: [UInt8] = []
        /// Where the current record starts in the window, and where it ends.
        private(set) var start = 0
        private var recordEnd = 0
        private(set) var hasRecord = false

        init(_ scratch: ScratchFile, run: (offset: Int, count: Int)) throws {
            self.scratch = scratch
            next = run.offset
            end = run.offset + run.count
            window.reserveCapacity(StableIDOrdering.windowSize)
            try advance()
        }

        /// Calls `body` with the current record, read in place in the window.
        func withRecord(_ record: inout ExportRecord, _ body: (ExportRecord) throws -> Void) rethrows {
            try window.withUnsafeBufferPointer { try record.withStored(at: start, in: $0, body) }
        }

        /// Moves to the next record of the run, reading more of it when the window does not hold it whole.
        mutating func advance() throws {
            start = recordEnd
            while true {
                if let (length, header) = lengthAt(start), start + header + length <= window.count {
                    start += header
                    recordEnd = start + length
                    hasRecord = true
                    return
                }
                guard next < end else {
                    hasRecord = false
                    return
                }
                // Keep the unread bytes, then fill up to the window's size (or the record's, if larger).
                window.removeSubrange(0..<start)
                recordEnd = 0
                start = 0
                let wanted = max(StableIDOrdering.windowSize, (lengthAt(0).map { $0.0 + $0.1 } ?? 0)) - window.count
                let count = min(max(wanted, 1), end - next)
                let old = window.count
                window.append(contentsOf: repeatElement(0, count: count))
                try window.withUnsafeMutableBytes { try scratch.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[old...]), at: next) }
                next += count
            }
        }

        /// The record length written at `position` and the bytes it takes, when they are all in the window.
        private func lengthAt(_ position: Int) -> (Int, Int)? {
            var end = position
            guard let length = window.withUnsafeBufferPointer({ LEB128.read($0, at: &end) }) else { return nil }
            return (Int(length), end - position)
        }
    }
}
