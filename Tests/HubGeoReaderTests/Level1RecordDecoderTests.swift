import Foundation
@testable import HubGeoJSON
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

/// The byte-level Level 1 record decoder against the full reader (JSONParser, then
/// OrganizationRecord): wherever the decoder takes an entry, it must give exactly the
/// organization and the line the full reader gives, without any diagnostic; everything else it
/// must give up, never accept.
@Suite("Level 1 record decoder")
struct Level1RecordDecoderTests {
    /// The full reader's answer for one entry: the organization (nil when skipped) and any diagnostics.
    static func fullRead(_ entry: [UInt8], type: OrganizationType) -> (Organization?, Int?, [Diagnostic])? {
        guard let value = try? JSONParser().parse(Data(entry)) else { return nil }
        var diagnostics: [Diagnostic] = []
        let (organization, location) = Level1Document.readEntry(JSONCursor(value, path: "clubs[0]", line: 1), type: type, file: "f",
                                                                skipSeverity: .warning, diagnostics: &diagnostics)
        return (organization, location.line, diagnostics)
    }

    static func decode(_ entry: [UInt8], type: OrganizationType) -> (organization: Organization, firstMemberLine: Int)? {
        entry.withUnsafeBufferPointer { Level1RecordDecoder.decode($0, line: 1, type: type, source: "f") }
    }

    /// Every entry of every Level 1 file in Data/ and the upstream fixtures, as bytes.
    static func realEntries() throws -> [[UInt8]] {
        var entries: [[UInt8]] = []
        let folders = [TestPaths.data, TestPaths.upstream.appendingPathComponent("Level1")]
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".level1.json") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                guard case .object(let members)? = try? JSONParser().parse(data) else { continue }
                for member in members where member.key == "clubs" || member.key == "museums" {
                    guard case .array(let values) = member.value else { continue }
                    for value in values { entries.append(Array(try JSONSerialization.data(withJSONObject: value.foundationObject, options: [.prettyPrinted]))) }
                }
            }
        }
        return entries
    }

    static let handWritten: [String] = [
        #"{"idPlus": {"town": "Waalre", "fullName": "Fotogroep Waalre", "nickName": "fgWaalre"}, "coordinates": {"latitude": 51.39184, "longitude": 5.46144}}"#,
        #"{"coordinates": {"longitude": -0.0, "latitude": 1e1}, "idPlus": {"nickName": "n", "fullName": "F \"q\" \u00e9 \ud83d\ude00", "town": "T\/"}, "optional": null}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}, "optional": {"website": "", "wikipedia": null, "nlSpecific": {"fotobondNumber": 1234}, "remark": [{"language": "nl", "value": "b"}, {"language": "EN", "value": "a\u0000b"}]}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}, "optional": {"remark": [{"language": "EN", "value": "a"}, {"language": "en", "value": "b"}]}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F\u0000G", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}}"#,
        #"{"idPlus": {"town": " ", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 91, "longitude": 2}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": "1", "longitude": 2}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2, "latitude": 3}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 01, "longitude": 2}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}, "birthday": 3}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2},}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1.5e400, "longitude": 2}}"#,
        #"{"idPlus": {"town": "T", "fullName": "F", "nickName": "n"}, "coordinates": {"latitude": 1, "longitude": 2}, "optional": {"nlSpecific": {"fotobondNumber": 1.5}}}"#,
    ]

    /// Checks one entry: the decoder either gives up or agrees with the full reader exactly.
    static func check(_ entry: [UInt8], type: OrganizationType = .club) -> Bool? {
        guard let decoded = decode(entry, type: type) else { return nil }
        guard let (organization, line, diagnostics) = fullRead(entry, type: type) else {
            Issue.record("the decoder took an entry the parser rejects: \(String(decoding: entry, as: UTF8.self))")
            return false
        }
        #expect(diagnostics.isEmpty, "the decoder took an entry with problems: \(diagnostics) in \(String(decoding: entry, as: UTF8.self))")
        #expect(organization == decoded.organization, "\(String(decoding: entry, as: UTF8.self))")
        #expect(line == decoded.firstMemberLine)
        return true
    }

    @Test func agreesWithTheFullReaderOnRealAndHandWrittenEntries() throws {
        let entries = try Self.realEntries()
        #expect(entries.count > 200)
        var taken = 0
        for entry in entries + Self.handWritten.map({ Array($0.utf8) }) {
            if Self.check(entry) == true { taken += 1 }
        }
        // Every real entry is ordinary: the decoder takes them all (most upstream fixtures too).
        #expect(taken >= entries.count * 9 / 10, "\(taken) of \(entries.count)")
        #expect(Self.decode(Array(Self.handWritten[0].utf8), type: .club) != nil)
        // Strings are read by the one reader of JSON bytes, as the parser reads them: a surrogate pair too.
        #expect(Self.decode(Array(Self.handWritten[1].utf8), type: .club)?.organization.fullName == "F \"q\" é 😀")
        #expect(Self.decode(Array(Self.handWritten[2].utf8), type: .club)?.organization.remarks.map(\.language) == ["EN", "NL"])
        for given in Self.handWritten.dropFirst(3) {
            #expect(Self.decode(Array(given.utf8), type: .club) == nil, "\(given)")
        }
    }

    @Test func mutatedEntriesAreTakenOnlyWhenTheFullReaderAgrees() throws {
        var random = SplitMix64(seed: 0x4C31_4445)
        let entries = try Self.realEntries() + Self.handWritten.map { Array($0.utf8) }
        let alphabet = Array("{}[]\":,\\ \n0123456789.-eEnulltrufasxyz\u{0}é".utf8)
        var taken = 0, tried = 0
        for _ in 0..<20_000 {
            var entry = entries[Int.random(in: 0..<entries.count, using: &random)]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<entry.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: entry[at] = alphabet.randomElement(using: &random)!
                case 1: entry.remove(at: at)
                default: entry.insert(alphabet.randomElement(using: &random)!, at: at)
                }
                if entry.isEmpty { entry = [0x7B] }
            }
            tried += 1
            if Self.check(entry) == true { taken += 1 }
        }
        print("decoder fuzz: \(taken) of \(tried) mutated entries taken, all agreeing with the full reader")
        #expect(taken > 1_000)
    }
}

extension JSONValue {
    /// The value as Foundation objects, for JSONSerialization.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .object(let members): Dictionary(members.map { ($0.key, $0.value.foundationObject) }, uniquingKeysWith: { $1 })
        }
    }
}
