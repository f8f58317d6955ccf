import HubGeo

/// A plain-text table with aligned columns, for terminals.
struct TextTable: Sendable {
    enum Alignment: Sendable { case left, right }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines, columns separated by two spaces, no trailing blanks;
    /// the header and its rule only when `includeHeader`. A cell with line breaks takes as many
    /// lines, in its column. Columns are as wide as their cells will show on a terminal, where
    /// ``TerminalSafe`` escapes what the data holds (the text is returned unescaped: the one
    /// that prints it escapes it).
    func render(includeHeader: Bool = true) -> String {
        let lines = ((includeHeader ? [headers] : []) + rows).flatMap { row -> [[String]] in
            let cells = row.map { $0.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init) }
            return (0..<(cells.map(\.count).max() ?? 1)).map { line in cells.map { line < $0.count ? $0[line] : "" } }
        }
        let widths = headers.indices.map { column in lines.map { Self.width(of: $0[column]) }.max() ?? 0 }
        let rule = includeHeader ? [widths.map { String(repeating: "-", count: $0) }] : []
        let laidOut = (includeHeader ? [lines[0]] + rule + lines.dropFirst() : lines).map { row in
            row.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - Self.width(of: row[column]))
                return alignments[column] == .right ? padding + row[column] : row[column] + padding
            }
            .joined(separator: "  ")
            .replacingTrailingSpaces()
        }
        return laidOut.joined(separator: "\n")
    }

    /// Terminal columns a string takes as shown (escaped, see ``TerminalSafe``): one per
    /// character, two for wide East Asian ones.
    static func width(of text: String) -> Int {
        TerminalSafe.escaped(text).reduce(0) { total, character in
            let scalar = character.unicodeScalars.first!.value
            let wide = (0x1100...0x115F).contains(scalar) || (0x2E80...0xA4CF).contains(scalar)
                || (0xAC00...0xD7A3).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
                || (0xFF00...0xFF60).contains(scalar) || (0x1F300...0x1FAFF).contains(scalar)
            return total + (wide ? 2 : 1)
        }
    }
}

private extension String {
    func replacingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
