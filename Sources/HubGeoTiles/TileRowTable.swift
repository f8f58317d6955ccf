import HubGeoDatabase
import HubGeoModel

/// The rows of every organization an archive's tiles show, packed: their texts one after the other
/// in one byte array (each its length in `LEB128` and its UTF-8), a start and a flags byte per row, and the
/// row ids mapped to rows by a table (ids nearly dense, as an import leaves them) or a sorted list.
///
/// At 1,000,000 organizations the rows as a `[Int64: MapOrganizationRow]` took about 400 MB (a
/// dictionary of 2^21 buckets of 144 bytes, and a heap object for each text over 15 bytes), most of
/// `hubgeo tiles`' 823 MB peak; packed, they take about 70 MB. Read by many threads at once once built.
struct TileRowTable: Sendable {
    private var text: [UInt8] = []
    private var starts: [UInt32] = []
    /// Per row: 1 museum, 2 a localized town, 4 a localized country.
    private var flags: [UInt8] = []
    private var ids: [Int64] = []
    /// Ids from `firstID` on to row + 1 (0: none), when the ids are nearly dense.
    private var denseRows: [UInt32] = []
    private var firstID: Int64 = 0
    /// Otherwise (id, row) sorted by id.
    private var sortedRows: [(id: Int64, row: UInt32)] = []

    var count: Int { starts.count }

    mutating func append(id: Int64, _ row: MapOrganizationRow) {
        precondition(text.count < Int(UInt32.max) - (1 << 20), "too much text for one tile set")
        starts.append(UInt32(text.count))
        ids.append(id)
        var flag: UInt8 = row.type == .museum ? 1 : 0
        append(row.stableID)
        append(row.name)
        append(row.nickName)
        append(row.town)
        if let town = row.localizedTown {
            flag |= 2
            append(town)
        }
        if let country = row.localizedCountry {
            flag |= 4
            append(country)
        }
        flags.append(flag)
    }

    private mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            LEB128.append(UInt64(utf8.count), to: &text)
            text.append(contentsOf: utf8)
        }
    }

    /// Makes the map from ids to rows; call once, after the last ``append(id:_:)``.
    mutating func finish() {
        defer { ids = [] }
        guard let low = ids.min(), let high = ids.max() else { return }
        if high - low < Int64(4 * ids.count + 1024) {
            firstID = low
            denseRows = [UInt32](repeating: 0, count: Int(high - low) + 1)
            for (row, id) in ids.enumerated() { denseRows[Int(id - low)] = UInt32(row + 1) }
        } else {
            sortedRows = ids.enumerated().map { (id: $0.element, row: UInt32($0.offset)) }
            sortedRows.sort { $0.id < $1.id }
        }
    }

    private func slot(of id: Int64) -> Int? {
        if !denseRows.isEmpty {
            let offset = id &- firstID
            guard offset >= 0 && offset < Int64(denseRows.count) else { return nil }
            let row = denseRows[Int(offset)]
            return row == 0 ? nil : Int(row - 1)
        }
        var low = 0, high = sortedRows.count
        while low < high {
            let middle = (low + high) / 2
            if sortedRows[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < sortedRows.count && sortedRows[low].id == id ? Int(sortedRows[low].row) : nil
    }

    /// True when the organization with this id is a museum.
    func isMuseum(_ id: Int64) -> Bool {
        slot(of: id).map { flags[$0] & 1 != 0 } ?? false
    }

    /// The row of the organization with this id, if any.
    func row(_ id: Int64) -> TileRow? {
        guard let slot = slot(of: id) else { return nil }
        let flag = flags[slot]
        return text.withUnsafeBufferPointer { text in
            var position = Int(starts[slot])
            func next() -> String {
                // The table wrote every length whole, so it reads back.
                let length = Int(LEB128.read(text, at: &position)!)
                defer { position += length }
                return String(decoding: UnsafeBufferPointer(rebasing: text[position..<position + length]), as: UTF8.self)
            }
            let stableID = next(), name = next(), nickName = next(), town = next()
            let localizedTown = flag & 2 != 0 ? next() : nil
            let localizedCountry = flag & 4 != 0 ? next() : nil
            return TileRow(stableID: stableID, name: name, nickName: nickName, type: flag & 1 != 0 ? .museum : .club,
                           town: town, localizedTown: localizedTown, localizedCountry: localizedCountry)
        }
    }
}
