/// How hubgeo names a value in a document, the "JSON path" of its diagnostics:
/// `clubs[3].coordinates.latitude`. A key that is not a plain name (an ASCII letter, `_` or `$`,
/// then also digits) is written in brackets as a JSON string, `optional["website.x"]`, so that a
/// key holding a dot or a bracket is told apart from nested keys (`optional.website.x` is the key
/// `x` inside `website`). The one place that writes and reads these paths.
package enum JSONPath {
    package enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The path of the member `key` of the object at `path`.
    package static func member(_ path: String, _ key: String) -> String {
        guard isPlain(key) else { return path + "[" + quoted(key) + "]" }
        return path.isEmpty ? key : path + "." + key
    }

    /// The path of element `index` of the array at `path`.
    package static func element(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }

    /// Whether `key` is written as it is (`website`), not in brackets (`["website.x"]`).
    package static func isPlain(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "$"): true
            default: false
            }
        }
    }

    /// `key` as a JSON string literal (``JSONString``).
    static func quoted(_ key: String) -> String {
        JSONString.quoted(key)
    }

    /// The steps of `path`, each with where it starts in `path` (its `.` or `[`, or the start).
    /// Reads what ``member(_:_:)`` and ``element(_:_:)`` write, scalar by scalar (a key may
    /// hold any character); anything else in brackets is skipped.
    package static func components(of path: String) -> [(step: Step, start: String.Index)] {
        let scalars = path.unicodeScalars
        var result: [(Step, String.Index)] = []
        var index = scalars.startIndex
        func name(from start: String.Index) -> String.Index {
            var end = start
            while end < scalars.endIndex, scalars[end] != ".", scalars[end] != "[" { end = scalars.index(after: end) }
            return end
        }
        while index < scalars.endIndex {
            let start = index
            switch scalars[index] {
            case "[":
                let inside = scalars.index(after: index)
                if inside < scalars.endIndex, scalars[inside] == "\"" {
                    // A quoted key: up to the unescaped closing quote, then "]".
                    var key = String.UnicodeScalarView()
                    var cursor = scalars.index(after: inside)
                    while cursor < scalars.endIndex, scalars[cursor] != "\"" {
                        if scalars[cursor] == "\\", scalars.index(after: cursor) < scalars.endIndex {
                            cursor = scalars.index(after: cursor)
                            key.append(unescaped(at: &cursor, in: scalars))
                        } else {
                            key.append(scalars[cursor])
                        }
                        cursor = scalars.index(after: cursor)
                    }
                    index = cursor < scalars.endIndex ? scalars.index(after: cursor) : cursor
                    if index < scalars.endIndex, scalars[index] == "]" { index = scalars.index(after: index) }
                    result.append((.key(String(key)), start))
                } else {
                    guard let close = scalars[inside...].firstIndex(of: "]") else { return result }
                    if let number = Int(String(scalars[inside..<close])) { result.append((.index(number), start)) }
                    index = scalars.index(after: close)
                }
            case ".":
                let end = name(from: scalars.index(after: index))
                result.append((.key(String(scalars[scalars.index(after: index)..<end])), start))
                index = end
            default:
                let end = name(from: index)
                result.append((.key(String(scalars[index..<end])), start))
                index = end
            }
        }
        return result
    }

    /// The steps of `path`.
    package static func steps(of path: String) -> [Step] {
        components(of: path).map(\.step)
    }

    /// The path of the value that holds the one at `path` ("" for a top-level one); nil for "".
    package static func parent(of path: String) -> String? {
        guard let last = components(of: path).last else { return nil }
        return String(path.unicodeScalars[..<last.start])
    }

    /// The scalar of the backslash escape whose code is at `cursor` (`\uXXXX`: `cursor` moves to its last digit).
    private static func unescaped(at cursor: inout String.Index, in scalars: String.UnicodeScalarView) -> Unicode.Scalar {
        switch scalars[cursor] {
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "u":
            var digits = ""
            var probe = cursor
            for _ in 0..<4 {
                probe = scalars.index(after: probe)
                guard probe < scalars.endIndex else { return "u" }
                digits.unicodeScalars.append(scalars[probe])
            }
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return "u" }
            cursor = probe
            return scalar
        default: return scalars[cursor]
        }
    }
}
