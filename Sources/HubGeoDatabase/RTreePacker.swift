import GRDB
import GRDBSQLite

/// Builds the R*Tree of a bulk load in one go, packed: the points are sorted into tiles (the
/// Sort-Tile-Recursive method of Leutenegger et al., 1997), each tile fills three quarters of one node, and the
/// nodes are written straight into the R*Tree's tables (`_node`, `_rowid`, `_parent`) in
/// SQLite's own format. Inserting the rows one by one instead splits nodes all the time and
/// leaves them a third empty; a packed tree is built several times faster and answers with
/// fewer nodes read. SQLite's `rtreecheck()` accepts the result, and later inserts and deletes
/// (a sync) maintain it as any other.
///
/// The format (SQLite's `ext/rtree/rtree.c`): node 1 is the root; each node is a blob of the
/// size of the root blob made by `CREATE VIRTUAL TABLE`: a 2-byte depth (root only), a 2-byte
/// cell count, then cells of a 64-bit id (a row id in a leaf, a node number above) and four
/// 32-bit floats (min x, max x, min y, max y), all big-endian; the floats are rounded outwards.
enum RTreePacker {
    struct Entry {
        var id: Int64
        var minX: Float
        var maxX: Float
        var minY: Float
        var maxY: Float
    }

    /// Fills the empty R*Tree `index` (as made by SpatiaLite's `CreateSpatialIndex`) from the
    /// points that `points` selects: id, longitude, latitude.
    static func build(_ db: Database, index: String, points: String) throws {
        guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \("\(index)_node".quotedDatabaseIdentifier) WHERE nodeno = 1"),
              nodeSize > 4 + 24 * 4 else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the spatial index \(index) has no root node")
        }
        var entries: [Entry] = []
        let rows = try Row.fetchCursor(db, sql: points)
        while let row = try rows.next() {
            let x: Double = row[1], y: Double = row[2]
            entries.append(Entry(id: row[0], minX: down(x), maxX: up(x), minY: down(y), maxY: up(y)))
        }
        // Nodes filled to three quarters, not to the brim: a later insert into a full node splits
        // it, and SQLite's R*Tree then reinserts entries into neighbours that are full as well.
        let capacity = max(2, (nodeSize - 4) / 24 * 3 / 4)
        try db.execute(sql: """
            DELETE FROM \("\(index)_node".quotedDatabaseIdentifier);
            DELETE FROM \("\(index)_rowid".quotedDatabaseIdentifier);
            DELETE FROM \("\(index)_parent".quotedDatabaseIdentifier);
            """)
        let insertNode = try PreparedStatement(db, sql: "INSERT INTO \("\(index)_node".quotedDatabaseIdentifier) (nodeno, data) VALUES (?, ?)")
        let insertRowID = try PreparedStatement(db, sql: "INSERT INTO \("\(index)_rowid".quotedDatabaseIdentifier) (rowid, nodeno) VALUES (?, ?)")
        let insertParent = try PreparedStatement(db, sql: "INSERT INTO \("\(index)_parent".quotedDatabaseIdentifier) (nodeno, parentnode) VALUES (?, ?)")

        // Leaves first, then each level above, until one node holds the rest: the root.
        var level = tiles(&entries, capacity: capacity)
        var depth = 0
        var nextNode: Int64 = 2
        var blob = [UInt8](repeating: 0, count: nodeSize)
        while true {
            let isRoot = level.count == 1
            var parents: [Entry] = []
            for group in level {
                let node: Int64 = isRoot ? 1 : nextNode
                if !isRoot { nextNode += 1 }
                for index in blob.indices { blob[index] = 0 }
                if isRoot { store16(UInt16(depth), in: &blob, at: 0) }
                store16(UInt16(group.count), in: &blob, at: 2)
                var box = Entry(id: node, minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
                for (position, entry) in group.enumerated() {
                    let offset = 4 + position * 24
                    store64(UInt64(bitPattern: entry.id), in: &blob, at: offset)
                    store32(entry.minX.bitPattern, in: &blob, at: offset + 8)
                    store32(entry.maxX.bitPattern, in: &blob, at: offset + 12)
                    store32(entry.minY.bitPattern, in: &blob, at: offset + 16)
                    store32(entry.maxY.bitPattern, in: &blob, at: offset + 20)
                    box.minX = min(box.minX, entry.minX)
                    box.maxX = max(box.maxX, entry.maxX)
                    box.minY = min(box.minY, entry.minY)
                    box.maxY = max(box.maxY, entry.maxY)
                    if depth == 0 {
                        insertRowID.bind(1, entry.id)
                        insertRowID.bind(2, node)
                        try insertRowID.execute()
                    } else {
                        insertParent.bind(1, entry.id)
                        insertParent.bind(2, node)
                        try insertParent.execute()
                    }
                }
                insertNode.bind(1, node)
                blob.withUnsafeBytes { insertNode.bind(2, blob: $0) }
                try insertNode.execute()
                parents.append(box)
            }
            if isRoot { return }
            level = tiles(&parents, capacity: capacity)
            depth += 1
        }
    }

    /// Sort-Tile-Recursive: groups of at most `capacity` entries, close together. An empty
    /// input gives one empty group (an empty root).
    static func tiles(_ entries: inout [Entry], capacity: Int) -> [[Entry]] {
        guard entries.count > capacity else { return [entries] }
        let nodes = (entries.count + capacity - 1) / capacity
        let slices = Int(Double(nodes).squareRoot().rounded(.up))
        let sliceSize = slices * capacity
        entries.sort { $0.minX + $0.maxX < $1.minX + $1.maxX }
        var groups: [[Entry]] = []
        groups.reserveCapacity(nodes)
        var start = 0
        while start < entries.count {
            let end = min(start + sliceSize, entries.count)
            var slice = Array(entries[start..<end])
            slice.sort { $0.minY + $0.maxY < $1.minY + $1.maxY }
            var groupStart = 0
            while groupStart < slice.count {
                groups.append(Array(slice[groupStart..<min(groupStart + capacity, slice.count)]))
                groupStart += capacity
            }
            start = end
        }
        return groups
    }

    /// The largest float not above `value`, and the smallest not below: the box always holds the point.
    static func down(_ value: Double) -> Float {
        let float = Float(value)
        return Double(float) > value ? float.nextDown : float
    }

    static func up(_ value: Double) -> Float {
        let float = Float(value)
        return Double(float) < value ? float.nextUp : float
    }

    private static func store16(_ value: UInt16, in blob: inout [UInt8], at offset: Int) {
        blob[offset] = UInt8(value >> 8)
        blob[offset + 1] = UInt8(value & 0xFF)
    }

    private static func store32(_ value: UInt32, in blob: inout [UInt8], at offset: Int) {
        for byte in 0..<4 { blob[offset + byte] = UInt8((value >> (24 - 8 * UInt32(byte))) & 0xFF) }
    }

    private static func store64(_ value: UInt64, in blob: inout [UInt8], at offset: Int) {
        for byte in 0..<8 { blob[offset + byte] = UInt8((value >> (56 - 8 * UInt64(byte))) & 0xFF) }
    }
}
