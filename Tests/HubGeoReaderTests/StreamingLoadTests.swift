import Foundation
@testable import HubGeoJSON
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

/// The streaming load (record by record, what `hubgeo import` uses) must give exactly what the
/// in-memory load gives: the same organizations with the same Level 2 merges, the same
/// diagnostics with the same lines and paths, the same errors.
@Suite("Streaming load: the same data as the in-memory load")
struct StreamingLoadTests {
    let loader = HubLoader(reader: DocumentReader(remoteFetch: nil, maxFileBytes: 1 << 30))

    struct Failure: Error, Equatable { var text: String }

    /// Both loads of one root: the data, or the error's description.
    private func both(_ root: DocumentLocation, level2: [DocumentLocation] = []) -> (memory: Result<HubData, Failure>, streamed: Result<HubData, Failure>) {
        let memory = Result { try loader.load(root: root, level2Files: level2) }.mapError { Failure(text: "\($0)") }
        var organizations: [Organization] = []
        let streamed = Result {
            let summary = try loader.load(root: root, level2Files: level2) { organizations.append($0) }
            return HubData(organizations: organizations, summary: summary)
        }.mapError { Failure(text: "\($0)") }
        return (memory, streamed)
    }

    private func expectSame(_ root: DocumentLocation, level2: [DocumentLocation] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        let (memory, streamed) = both(root, level2: level2)
        switch (memory, streamed) {
        case (.success(let a), .success(let b)):
            // Clubs held back for a Level 2 file come last in the stream; the set and each record are the same.
            #expect(a.organizations.sorted { $0.identity < $1.identity } == b.organizations.sorted { $0.identity < $1.identity },
                    sourceLocation: sourceLocation)
            #expect(a.diagnostics == b.diagnostics, sourceLocation: sourceLocation)
            #expect(a.level1Files == b.level1Files && a.level2Files.sorted() == b.level2Files.sorted()
                    && a.orphanLevel2Files.sorted() == b.orphanLevel2Files.sorted(), sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        default:
            Issue.record("one load failed, the other did not: \(memory) vs \(streamed)", sourceLocation: sourceLocation)
        }
    }

    @Test func realDataAndEveryUpstreamFixture() throws {
        expectSame(.embedded(EmbeddedData.rootName))
        expectSame(.file(TestPaths.data))
        expectSame(.file(TestPaths.data.appendingPathComponent("root.level1.json")))
        let level1 = TestPaths.upstream.appendingPathComponent("Level1")
        for name in try FileManager.default.contentsOfDirectory(atPath: level1.path).sorted() {
            expectSame(.file(level1.appendingPathComponent(name)))
        }
        let level2 = TestPaths.upstream.appendingPathComponent("Level2")
        for name in try FileManager.default.contentsOfDirectory(atPath: level2.path).sorted() {
            expectSame(.file(TestPaths.data), level2: [.file(level2.appendingPathComponent(name))])
        }
    }

    @Test(arguments: BadInput.all)
    func everyBadInput(_ input: BadInput) throws {
        guard input.generatedBytes == nil else { return }  // the 50 MB case is the corpus test's
        let directory = try TestPaths.temporaryDirectory()
        for (name, bytes) in input.files { try bytes.write(to: directory.url.appendingPathComponent(name)) }
        expectSame(.file(directory.url.appendingPathComponent("root.level1.json")))
    }

    @Test func oddButValidLayoutsFallBackOrStreamAlike() throws {
        let directory = try TestPaths.temporaryDirectory()
        let entry = Level1Builder.record(.init(town: "T", fullName: "F", nickName: "n", latitude: 1, longitude: 2))
        let cases = [
            "\u{FEFF}{\"clubs\": [\(entry)]}",                            // byte order mark
            "{\"museums\": [\(entry)], \"clubs\": [\(entry)]}",             // museums first: clubs still win the duplicate
            "{\"clubs\": [\(entry)], \"clubs\": []}",                      // duplicate key: the last one counts
            "{\"clubs\": null, \"museums\": [ ], \"x\": {\"y\": [1, \"]}\"]}}",  // brackets inside strings
            "{\"clubs\":[\(entry)],\"level1Header\":{\"level1URLIncludes\":[]}}  \n",
            "{\"clubs\": [\(entry), ]}",                                    // trailing comma: an error
            "{\"clubs\": [\(entry)]} {}",                                   // text after the document: an error
            "{\"clubs\": [\(entry)], \"x\": [1,,2]}",                       // a bad member after the records: an error
            "{\"clubs\": \"many\"}",
        ]
        for (index, text) in cases.enumerated() {
            let file = try directory.write("case\(index).level1.json", text)
            expectSame(.file(file))
        }
    }

    @Test func aLargeMappedFileStreamsWithLinesAndPathsIntact() throws {
        let directory = try TestPaths.temporaryDirectory()
        var entries: [Level1Builder.Entry] = (0..<16_000).map {
            .init(town: "Town \($0 / 7)", fullName: "Club \($0)", nickName: "c\($0)", latitude: Double($0 % 170) - 85,
                  longitude: Double($0 % 350) - 175, optional: #"{"website": "https://example.org/\#($0)", "remark": [{"language": "EN", "value": "A remark long enough to make this file large."}]}"#)
        }
        entries[12_345].optional = #"{"website": 42}"#
        entries.append(entries[7])
        let file = try directory.write("big.level1.json", Level1Builder.level1(clubs: entries))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size >= MappedFile.threshold, "large enough to be mapped")
        expectSame(.file(file))
        var count = 0
        let data = try loader.load(root: .file(file)) { _ in count += 1 }
        #expect(count == 15_999, "one unusable record skipped, one duplicate dropped")
        #expect(data.diagnostics.map(\.jsonPath) == ["clubs[12345].optional.website", "clubs[16000]"])
    }
}

/// The streaming load reads (and parses) each Level 2 file once: the file that names a club to
/// hold back is the one merged into it.
@Suite("Streaming load: each Level 2 file read once")
struct Level2ReadOnceTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func note(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
        func count(_ name: String) -> Int { lock.withLock { counts[name] ?? 0 } }
    }

    @Test func explicitAndNeighbouringLevel2FilesAreReadOnce() throws {
        let waalre = Level1Builder.Entry(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46)
        var moved = waalre
        moved.latitude = 51.3918
        let files: [String: String] = [
            "root.level1.json": Level1Builder.level1(clubs: [waalre]),
            "extra.level2.json": Level1Builder.level2(club: moved),
        ]
        let counter = Counter()
        let reader = DocumentReader(remoteFetch: { url in
            counter.note(url.lastPathComponent)
            return files[url.lastPathComponent].map { Data($0.utf8) }
        })
        var seen: [Organization] = []
        let data = try HubLoader(reader: reader).load(root: .remote(URL(string: "https://example.org/root.level1.json")!),
                                                      level2Files: [.remote(URL(string: "https://example.org/extra.level2.json")!)]) {
            seen.append($0)
        }
        #expect(seen.map(\.coordinates.latitude) == [51.3918], "the explicit Level 2 file was merged")
        #expect(data.level2Files == ["https://example.org/extra.level2.json"])
        #expect(counter.count("extra.level2.json") == 1, "read \(counter.count("extra.level2.json")) times")
        #expect(counter.count("root.level1.json") == 1)
    }
}
