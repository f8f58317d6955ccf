import Foundation
import HubGeoModel
import HubGeoReader
import HubGeoTestSupport
@testable import HubGeoValidation
import Testing

/// Complexity guards (``ComplexityGuard``) of the whole of `validate` on one document, not of its
/// parts: 8 times the members must take less than 24 times the CPU time (linear: about 8, and up
/// to about 11 with the sorting of the diagnostics; quadratic: 64). The guards of the parts
/// (DocumentPositionsTests) passed while `validate FILE` with 80,000 unknown keys at the top level
/// took 10 s: the quadratic part, the streaming reader's check for duplicate top-level keys, was not
/// among those parts, nor on the path of ``Validator/validate(data:name:catalog:)`` (which parses
/// the document whole): these guards run the file path.
@Suite("validate's complexity")
struct ValidatorComplexityTests {
    let validator = Validator(reader: DocumentReader(remoteFetch: nil))

    /// A Level 1 file with one club whose object has `count` unknown keys, pretty-printed.
    static func unknownKeys(_ count: Int, inClub: Bool) -> Data {
        let keys = (0..<count).map { "    \"unknownKey\($0)\": \($0)" }.joined(separator: ",\n")
        let club = #"{"idPlus":{"town":"Waalre","fullName":"Fotogroep Waalre","nickName":"fgWaalre"},"coordinates":{"latitude":51.4,"longitude":5.4}"#
        if inClub { return Data(("{\"clubs\": [" + club + ",\n" + keys + "}]}").utf8) }
        return Data(("{\"clubs\": [" + club + "}],\n" + keys + "}").utf8)
    }

    /// The CPU time of `validate` on `data` as the file `root.level1.json`, as `hubgeo validate FILE`
    /// reads it (the tree walker's streaming reader, then the schema walk of the parsed document),
    /// and the number of diagnostics.
    func cpuSeconds(_ data: Data) throws -> (seconds: Double, diagnostics: Int) {
        let directory = try TestPaths.temporaryDirectory()
        let file = try directory.write("root.level1.json", String(decoding: data, as: UTF8.self))
        var count = 0
        let seconds = ComplexityGuard.fastestCPUSeconds(runs: 3) { count = validator.validate([.file(file)]).diagnostics.count }
        return (seconds, count)
    }

    @Test("unknown keys in one object (the root, a club): 40,000 take less than 24 times the CPU time of 5,000")
    func unknownKeysInOneObject() throws {
        for inClub in [false, true] {
            let small = try cpuSeconds(Self.unknownKeys(5_000, inClub: inClub))
            let large = try cpuSeconds(Self.unknownKeys(40_000, inClub: inClub))
            #expect(small.diagnostics >= 5_000 && large.diagnostics >= 40_000)
            #expect(large.seconds < 24 * small.seconds,
                    "\(inClub ? "a club" : "the root"): \(small.seconds) s for 5,000 unknown keys, \(large.seconds) s for 40,000")
        }
    }

    @Test("a minified file: 2,000 organizations take less than 24 times the CPU time of 250")
    func minifiedOrganizations() throws {
        let small = try cpuSeconds(DocumentPositionsTests.minified(organizations: 250))
        let large = try cpuSeconds(DocumentPositionsTests.minified(organizations: 2_000))
        #expect(large.seconds < 24 * small.seconds, "\(small.seconds) s for 250 organizations, \(large.seconds) s for 2,000")
    }
}
