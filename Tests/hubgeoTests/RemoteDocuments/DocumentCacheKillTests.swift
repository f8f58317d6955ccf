import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoModel
import HubGeoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` during an import that fetches: the organizations and the document cache are written
/// in one transaction, so after any kill they hold the old import or the new one, together.
@Suite("Document cache: kill -9 during a fetching import", .serialized)
struct DocumentCacheKillTests {
    typealias Tree = DocumentCacheTests.Tree
    static let clubs = 30

    /// The body hash of every document of a version of the tree, by path.
    static func hashes(version: String, clubs: Int = clubs) throws -> [String: String] {
        let scratch = try TestPaths.temporaryDirectory()
        try Tree.write(version: version, clubs: clubs, into: scratch)
        var hashes: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) {
            hashes["/" + name] = CachedDocument.hash(try Data(contentsOf: scratch.url.appendingPathComponent(name)))
        }
        return hashes
    }

    /// The organizations' version ("A" or "B", nil for a mix), after checking that the cache holds
    /// exactly that version's documents, each marked as used by the last import.
    static func state(of tree: Tree, hashes: [String: [String: String]]) throws -> String? {
        let store = try OrganizationStore(path: tree.database)
        let names = try store.database.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            return Set(try String.fetchAll(db, sql: "SELECT full_name FROM organization"))
        }
        let version = ["A", "B"].first { version in
            names == Set((0..<clubs).map { "Club \(version) \($0)" } + ["Museum \(version)"])
        }
        guard let version else { return nil }
        let entries = try DocumentCache.entries(store: store)
        let base = tree.server.baseURL.absoluteString
        let cached = Dictionary(uniqueKeysWithValues: entries.map { (String($0.url.dropFirst(base.count)), $0) })
        #expect(Set(cached.keys) == Set(hashes[version]!.keys), "the cache holds the tree's documents")
        for (path, hash) in hashes[version]! {
            #expect(cached[path]?.bodyHash == hash, "\(path) holds version \(version), like the organizations")
            #expect(cached[path]?.usedByLastImport == true, "\(path)")
        }
        return version
    }

    /// Two first imports at once into one new database: one links its staged database into place,
    /// the other syncs its staged organizations into that one, and its cache rows with them.
    @Test func twoConcurrentFirstImportsFromAURLLeaveOneDatabaseWithTheWholeCache() throws {
        let tree = try Tree(clubs: 10, staticDelay: 0.05)
        try Tree.write(version: "A", clubs: 10, into: tree.directory)
        let hashes = try Self.hashes(version: "A", clubs: 10)
        let scratch = try TestPaths.temporaryDirectory()
        var overlapped = 0
        for round in 0..<3 {
            let before = try tree.server.requests().count
            let database = scratch.path("hub\(round).sqlite")
            var environment = tree.cli.environment
            environment["HUBGEO_DB"] = database
            let first = try ImportRobustnessTests.start(["import", tree.root], environment: environment, in: scratch, name: "a\(round)")
            let second = try ImportRobustnessTests.start(["import", tree.root], environment: environment, in: scratch, name: "b\(round)")
            #expect(ImportRobustnessTests.wait(first, timeout: 120) && ImportRobustnessTests.wait(second, timeout: 120))
            #expect(first.terminationStatus == 0 && second.terminationStatus == 0, "round \(round)")
            let store = try OrganizationStore(path: database)
            let count = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM organization") ?? 0 }
            #expect(count == 11, "round \(round)")
            let entries = try DocumentCache.entries(store: store)
            let base = tree.server.baseURL.absoluteString
            #expect(Dictionary(uniqueKeysWithValues: entries.map { (String($0.url.dropFirst(base.count)), $0.bodyHash ?? "") }) == hashes,
                    "round \(round)")
            #expect(entries.allSatisfy { $0.usedByLastImport }, "round \(round)")
            // Both fetched every document whole: both staged a new database, and one synced into the other's.
            let requests = try tree.server.requests().dropFirst(before)
            if requests.count == 2 * hashes.count && requests.allSatisfy({ $0.status == 200 && !$0.isConditional }) { overlapped += 1 }
        }
        #expect(overlapped >= 1, "at least one round ran both first imports at once")
        print("concurrent first imports from a URL: \(overlapped) of 3 rounds staged both")
    }

    @Test func killedFetchingImportLeavesOrganizationsAndCacheBothOldOrBothNew() throws {
        let tree = try Tree(clubs: Self.clubs, staticDelay: 0.03, lifetime: 300)
        try Tree.write(version: "A", clubs: Self.clubs, into: tree.directory)
        let hashes = ["A": try Self.hashes(version: "A"), "B": try Self.hashes(version: "B")]
        let started = Date()
        let first = try tree.importing(timeout: 120)
        #expect(first.status == 0, "\(first.stderr)")
        let importSeconds = Date().timeIntervalSince(started)
        var current = try #require(try Self.state(of: tree, hashes: hashes))
        #expect(current == "A")

        var random = SplitMix64(seed: 0x63616368)
        var killedMidway = 0, completed = 0
        let scratch = try TestPaths.temporaryDirectory()
        for round in 0..<6 {
            let target = current == "A" ? "B" : "A"
            try Tree.write(version: target, clubs: Self.clubs, into: tree.directory)
            let process = try ImportRobustnessTests.start(["import", tree.root], environment: tree.cli.environment,
                                                          in: scratch, name: "import\(round)")
            // A real sleep, and the subject of the test: a kill at a random moment of an import.
            usleep(useconds_t(Double.random(in: 0.1...(importSeconds * 2.5), using: &random) * 1_000_000))
            let finishedAlone = !process.isRunning
            kill(process.processIdentifier, SIGKILL)
            ImportRobustnessTests.wait(process, timeout: 10)
            let found = try Self.state(of: tree, hashes: hashes)
            #expect(found != nil, "round \(round): the organizations are a mix or a part")
            guard let found else { break }
            if found == current { killedMidway += 1 } else { completed += 1 }
            if finishedAlone { #expect(found == target) }
            current = found
        }
        #expect(killedMidway >= 1, "at least one kill landed during a fetching import (import takes \(importSeconds) s)")
        print("kill -9 while fetching: \(killedMidway) killed midway (old organizations and cache kept), \(completed) completed; "
            + "import \(String(format: "%.2f", importSeconds)) s")
    }
}
