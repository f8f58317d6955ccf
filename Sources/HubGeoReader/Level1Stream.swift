import Foundation
import HubGeoJSON
import HubGeoModel

/// Reads a Level 1 file one organization at a time, for imports of any size: the file's
/// top-level members are located by ``JSONScanner``, every member other than `clubs` and
/// `museums` is parsed whole, and each entry of those arrays is parsed on its own and handed
/// over, so the whole JSON tree never exists. Consumed pages of a mapped file are released as
/// reading goes on. Lines, JSON paths, diagnostics and the order (clubs, then museums) are
/// those of ``Level1Document``.
enum Level1Stream {
    struct Result {
        var includes: [Level1Document.Include]
        var diagnostics: [Diagnostic]
    }

    /// Reads `data`, calling `entry` for each usable organization. Returns nil, before calling
    /// `entry` or at a syntax error, when the bytes are not plain, valid JSON that the scanner can
    /// vouch for: the caller then parses the whole document, which reports the exact error.
    static func read(_ data: Data, file: String, skipSeverity: Diagnostic.Severity,
                     entry: (Organization, Level1Document.EntryLocation) throws -> Void) throws -> Result? {
        try data.withUnsafeBytes { raw throws -> Result? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let members = topLevelMembers(bytes) else { return nil }
            var parsed: [String: JSONValue] = [:]
            for member in members where !OrganizationType.allCases.map(\.level1ArrayName).contains(member.key) {
                guard let value = parse(bytes, member.value) else { return nil }
                parsed[member.key] = value
            }
            func cursor(_ key: String) -> JSONCursor? {
                guard let value = parsed[key], value != .null, let member = members.first(where: { $0.key == key }) else { return nil }
                return JSONCursor(value, path: key, line: member.keyLine)
            }
            var result = Result(includes: try Level1Document.readIncludes(cursor("level1Header"), file: file), diagnostics: [])
            for type in OrganizationType.allCases {
                guard let member = members.first(where: { $0.key == type.level1ArrayName }) else { continue }
                let first = bytes[member.value.range.lowerBound]
                guard first == UInt8(ascii: "[") else {
                    guard let value = parse(bytes, member.value) else { return nil }
                    if value == .null { continue }
                    throw LoadError.invalidDocument(file: file, jsonPath: member.key,
                                                    reason: "expected an array, found \(value.kindDescription)")
                }
                var scanner = JSONScanner(bytes, position: member.value.range.lowerBound + 1,
                                          line: member.value.line, column: member.value.column + 1)
                var index = 0
                if scanner.peek() == UInt8(ascii: "]") {
                    _ = scanner.expect(UInt8(ascii: "]"))
                } else {
                    while true {
                        scanner.skipWhitespace()
                        let line = scanner.line, column = scanner.column
                        let start = scanner.position
                        let path = "\(type.level1ArrayName)[\(index)]"
                        if let (organization, firstLine, end) = Level1RecordDecoder.decode(
                            bytes, at: start, line: line, lineStart: start - column + 1, type: type, source: file) {
                            // Decoding found the entry's end: no second pass over its bytes.
                            scanner.advance(to: end.position, line: end.line, lineStart: end.lineStart)
                            try entry(organization, Level1Document.EntryLocation(jsonPath: path, line: firstLine))
                        } else {
                            guard let range = scanner.skipValue() else { return nil }
                            // Anything but an ordinary entry: the full reader, which says exactly what is wrong.
                            guard let value = parse(bytes, Span(range: range, line: line, column: column), depthUsed: 2) else { return nil }
                            let cursor = JSONCursor(value, path: path, line: member.keyLine)
                            let (organization, location) = Level1Document.readEntry(
                                cursor, type: type, file: file, skipSeverity: skipSeverity, diagnostics: &result.diagnostics)
                            if let organization { try entry(organization, location) }
                        }
                        index += 1
                        if index % 4096 == 0 { MappedFile.releasePages(of: bytes, before: start) }
                        if scanner.expect(UInt8(ascii: ",")) { continue }
                        guard scanner.expect(UInt8(ascii: "]")) else { return nil }
                        break
                    }
                }
                guard scanner.position == member.value.range.upperBound else { return nil }
            }
            return result
        }
    }

    /// Where a value lies: its bytes and the line and column of its first byte.
    struct Span {
        var range: Range<Int>
        var line: Int
        var column: Int
    }

    struct Member {
        var key: String
        var keyLine: Int
        var value: Span
    }

    /// The members of the top-level object, each key once; nil for anything else.
    static func topLevelMembers(_ bytes: UnsafeBufferPointer<UInt8>) -> [Member]? {
        var scanner = JSONScanner(bytes)
        scanner.releasesPagesBehind = true
        guard scanner.expect(UInt8(ascii: "{")) else { return nil }
        var members: [Member] = []
        // The keys seen: a duplicate sends the document to the whole parse, which reports it. (A scan
        // of `members` per key made 80,000 unknown top-level keys take 10 s, each doubling ×3.4.)
        var keys: Set<String> = []
        if scanner.peek() == UInt8(ascii: "}") {
            _ = scanner.expect(UInt8(ascii: "}"))
        } else {
            while true {
                scanner.skipWhitespace()
                let keyLine = scanner.line, keyColumn = scanner.column
                guard scanner.peek() == UInt8(ascii: "\""), let keyRange = scanner.skipValue(),
                      case .string(let key)? = parse(bytes, Span(range: keyRange, line: keyLine, column: keyColumn)),
                      keys.insert(key).inserted,
                      scanner.expect(UInt8(ascii: ":"))
                else { return nil }
                scanner.skipWhitespace()
                let line = scanner.line, column = scanner.column
                guard let range = scanner.skipValue() else { return nil }
                members.append(Member(key: key, keyLine: keyLine, value: Span(range: range, line: line, column: column)))
                if scanner.expect(UInt8(ascii: ",")) { continue }
                guard scanner.expect(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        scanner.skipWhitespace()
        return scanner.atEnd ? members : nil
    }

    /// Parses one value in place; nil on a syntax error. `depthUsed`: the levels of nesting
    /// around it, so that the depth limit is the one of the whole document.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Span, depthUsed: Int = 1) -> JSONValue? {
        var parser = JSONParser()
        parser.maxDepth -= depthUsed
        return try? parser.parse(slice: UnsafeBufferPointer(rebasing: bytes[span.range]), line: span.line, column: span.column)
    }
}
