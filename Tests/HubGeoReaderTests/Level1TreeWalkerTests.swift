import Foundation
@testable import HubGeoModel
@testable import HubGeoReader
import HubGeoTestSupport
import Testing

/// The Level 1 tree walker reports, in reading order, what it reads; its visitor decides what to
/// keep and whether a problem stops the walk.
@Suite("Level 1 tree walker: what it reports")
struct Level1TreeWalkerTests {
    /// Writes down every report.
    struct Recorder: Level1TreeVisitor {
        var events: [String] = []
        var goesOn = false

        mutating func enterDocument(_ location: DocumentLocation, data: Data) throws {
            events.append("enter \(location.fileName) (\(data.count) bytes)")
        }

        mutating func organization(_ organization: Organization, at place: Level1Place) throws {
            events.append("organization \(organization.fullName) at \(place.file.fileName):\(place.line ?? 0): \(place.jsonPath)")
        }

        mutating func diagnostic(_ diagnostic: Diagnostic) throws {
            events.append("diagnostic \(diagnostic.severity.rawValue) \(diagnostic.jsonPath)")
        }

        mutating func problem(_ error: Error, diagnostic: Diagnostic, discarding document: DocumentLocation?) throws {
            guard goesOn else { throw error }
            events.append("problem \(diagnostic.message) discarding \(document?.fileName ?? "-")")
        }
    }

    static let a = Level1Builder.Entry(town: "Waalre", fullName: "Fotogroep Waalre", nickName: "fgWaalre", latitude: 51.39, longitude: 5.46)
    static let b = Level1Builder.Entry(town: "Eindhoven", fullName: "Fotoclub E", nickName: "fcE", latitude: 51.44, longitude: 5.47)
    static let c = Level1Builder.Entry(town: "Breda", fullName: "Fotoclub B", nickName: "fcB", latitude: 51.58, longitude: 4.77)

    @Test func reportsDocumentsOrganizationsAndDiagnosticsInReadingOrder() throws {
        let directory = try TemporaryDirectory()
        var bad = Self.c
        bad.latitude = 95
        let root = try directory.write("root.level1.json", Level1Builder.level1(clubs: [Self.a], includes: ["https://x.org/one.level1.json"]))
        _ = try directory.write("one.level1.json", Level1Builder.level1(clubs: [Self.b, bad], museums: [Self.a]))
        var recorder = Recorder()
        let walk = try Level1TreeWalker(reader: DocumentReader(remoteFetch: nil)).walk(root: .file(directory.url), visitor: &recorder)
        let rootSize = try Data(contentsOf: root).count
        let oneSize = try Data(contentsOf: directory.url.appendingPathComponent("one.level1.json")).count
        #expect(recorder.events == [
            "enter root.level1.json (\(rootSize) bytes)",
            "organization Fotogroep Waalre at root.level1.json:2: clubs[0]",
            "enter one.level1.json (\(oneSize) bytes)",
            "organization Fotoclub E at one.level1.json:2: clubs[0]",
            "diagnostic warning clubs[1].coordinates.latitude",  // a document's diagnostics come in its order
            "diagnostic warning museums[0]",
        ])
        #expect(walk.root == .file(root))
        #expect(walk.files.map(\.fileName) == ["root.level1.json", "one.level1.json"])
        #expect(walk.organizationCount == 2)
    }

    @Test func aVisitorThatGoesOnGetsEveryProblemAndLosesABrokenDocumentsOrganizations() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("root.level1.json", Level1Builder.level1(
            clubs: [Self.a], includes: ["https://x.org/missing.level1.json", "https://x.org/broken.level1.json",
                                        "https://x.org/later.level1.json", "https://x.org/root.level1.json"]))
        // Its club is read before its museums turn out to be of the wrong shape.
        _ = try directory.write("broken.level1.json", "{\"clubs\": [\(Level1Builder.record(Self.b))], \"museums\": \"many\"}")
        _ = try directory.write("later.level1.json", Level1Builder.level1(clubs: [Self.b]))
        var recorder = Recorder()
        recorder.goesOn = true
        let walk = try Level1TreeWalker(reader: DocumentReader(remoteFetch: nil)).walk(root: .file(directory.url), visitor: &recorder)
        let problems = recorder.events.filter { $0.hasPrefix("problem") }
        #expect(problems.count == 3)
        #expect(problems[0].hasSuffix("does not exist discarding missing.level1.json"))
        #expect(problems[1].hasPrefix("problem expected an array") && problems[1].hasSuffix("discarding broken.level1.json"))
        #expect(recorder.events.firstIndex(of: "organization Fotoclub E at broken.level1.json:1: clubs[0]")
                == recorder.events.firstIndex(of: problems[1]).map { $0 - 1 }, "reported as read, then discarded")
        #expect(problems[2].hasPrefix("problem include cycle:") && problems[2].hasSuffix("discarding -"))
        // The broken file's club no longer counts: the later file's declaration is the first one.
        #expect(recorder.events.contains("organization Fotoclub E at later.level1.json:2: clubs[0]"))
        #expect(!recorder.events.contains { $0.hasPrefix("diagnostic") })
        #expect(walk.files.map(\.fileName) == ["root.level1.json", "later.level1.json"])
        #expect(walk.organizationCount == 2)
    }

    @Test func byDefaultAProblemStopsTheWalk() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("root.level1.json", Level1Builder.level1(
            clubs: [Self.a], includes: ["https://x.org/missing.level1.json", "https://x.org/later.level1.json"]))
        _ = try directory.write("later.level1.json", Level1Builder.level1(clubs: [Self.b]))
        struct Counter: Level1TreeVisitor {
            var names: [String] = []
            mutating func organization(_ organization: Organization, at place: Level1Place) { names.append(organization.fullName) }
            mutating func diagnostic(_ diagnostic: Diagnostic) {}
        }
        var counter = Counter()
        do {
            _ = try Level1TreeWalker(reader: DocumentReader(remoteFetch: nil)).walk(root: .file(directory.url), visitor: &counter)
            Issue.record("the walk went on after a missing include")
        } catch let error as LoadError {
            guard case .missingInclude = error else { Issue.record("unexpected \(error)"); return }
        }
        #expect(counter.names == ["Fotogroep Waalre"], "nothing after the missing include is read")
    }

    @Test func anEmptyTreeSaysSo() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.write("root.level1.json", Level1Builder.level1())
        var recorder = Recorder()
        let walk = try Level1TreeWalker(reader: DocumentReader(remoteFetch: nil)).walk(root: .file(root), visitor: &recorder)
        #expect(walk.emptinessError(diagnostics: []) == .noOrganizations(root: root.path))
        let skipped = Diagnostic(severity: .warning, rule: .missingKey, file: "f", jsonPath: "clubs[0]", message: "m")
        #expect(walk.emptinessError(diagnostics: [skipped]) == .noUsableOrganizations(root: root.path, problems: [skipped.description]))
        #expect(LoadError.noUsableOrganizations(root: "r", problems: ["p"]).diagnostic.message.hasSuffix("(1 problem)"))
        #expect(LoadError.noUsableOrganizations(root: "r", problems: ["p", "q"]).diagnostic.message.hasSuffix("(2 problems)"))
    }

    /// `root.level1.json` -> `c1.level1.json` -> ... -> `c<depth-1>.level1.json`, one museum each;
    /// the last one includes `lastIncludes`.
    static func writeChain(_ depth: Int, lastIncludes: [String] = [], in directory: TemporaryDirectory) throws {
        func name(_ level: Int) -> String { level == 0 ? "root.level1.json" : "c\(level).level1.json" }
        for level in 0..<depth {
            let museum = Level1Builder.Entry(town: "T\(level)", fullName: "M\(level)", nickName: "m\(level)", latitude: 50, longitude: 5)
            let includes = level + 1 < depth ? ["https://x.org/\(name(level + 1))"] : lastIncludes
            _ = try directory.write(name(level), Level1Builder.level1(museums: [museum], includes: includes))
        }
    }

    @Test func aDeepCycleNamesTheWholeChainFromWhereItCloses() throws {
        let directory = try TemporaryDirectory()
        try Self.writeChain(1_000, lastIncludes: ["https://x.org/c2.level1.json"], in: directory)
        var recorder = Recorder()
        recorder.goesOn = true
        let walk = try Level1TreeWalker(reader: DocumentReader(remoteFetch: nil)).walk(root: .file(directory.url), visitor: &recorder)
        let chain = (2..<1_000).map { directory.path("c\($0).level1.json") } + [directory.path("c2.level1.json")]
        #expect(recorder.events.filter { $0.hasPrefix("problem") } == ["problem include cycle: \(chain.joined(separator: " -> ")) discarding -"])
        #expect(walk.files.count == 1_000)
        #expect(walk.organizationCount == 1_000)
    }

    @Test func anIncludeBeyondTheDepthLimitIsAProblemNamingTheChainsStartAndTheLimit() throws {
        let directory = try TemporaryDirectory()
        try Self.writeChain(6, in: directory)
        var walker = Level1TreeWalker(reader: DocumentReader(remoteFetch: nil))
        walker.maximumDepth = 4
        var recorder = Recorder()
        recorder.goesOn = true
        let walk = try walker.walk(root: .file(directory.url), visitor: &recorder)
        #expect(recorder.events.filter { $0.hasPrefix("problem") } == [
            "problem included file \(directory.path("c4.level1.json")) not read: the include chain from "
                + "\(directory.path("root.level1.json")) would be longer than 4 files discarding -",
        ])
        #expect(walk.files.map(\.fileName) == ["root.level1.json", "c1.level1.json", "c2.level1.json", "c3.level1.json"])

        var stopper = Recorder()
        #expect(throws: LoadError.includeTooDeep(root: directory.path("root.level1.json"), limit: 4,
                                                 include: directory.path("c4.level1.json"),
                                                 includedFrom: directory.path("c3.level1.json"),
                                                 jsonPath: "level1Header.level1URLIncludes[0]")) {
            try walker.walk(root: .file(directory.url), visitor: &stopper)
        }
    }
}
