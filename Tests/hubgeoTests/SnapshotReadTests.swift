import Foundation
import HubGeoTestSupport
import Testing

/// Every answer, of `hubgeo serve` and of the CLI, is read from one snapshot of the database,
/// even while another `hubgeo import` commits into it.
@Suite("answers read one snapshot while an import commits", .serialized)
struct SnapshotReadTests {
    /// A Level 1 file of `clubs` clubs and `museums` museums, the same organizations in every
    /// generation, whose websites carry the generation: `https://GENERATION.example.org/...`.
    static func level1(generation: String, clubs: Int, museums: Int) -> String {
        func entries(_ kind: String, _ count: Int) -> [Level1Builder.Entry] {
            (0..<count).map { index in
                Level1Builder.Entry(town: "Town \(index % 97)", fullName: "Generated \(kind) \(index)", nickName: "\(kind)\(index)",
                                    latitude: Double(index * 7919 % 170_000) / 1000 - 85,
                                    longitude: Double(index * 104_729 % 359_000) / 1000 - 179.5,
                                    optional: #"{"website": "https://\#(generation).example.org/\#(kind)/\#(index)"}"#)
            }
        }
        return Level1Builder.level1(clubs: entries("club", clubs), museums: entries("museum", museums))
    }

    /// The generations whose marker `answer` carries.
    static func generations(in answer: String) -> [String] {
        ["gen-a", "gen-b"].filter { answer.contains("https://\($0).example.org/") }
    }

    @Test("while imports of two generations alternate, no answer of serve or the CLI holds both")
    func noAnswerMixesTwoImports() throws {
        let home = try TestPaths.temporaryDirectory()
        let clubs = 3_000, museums = 300
        let treeA = try home.write("a.level1.json", Self.level1(generation: "gen-a", clubs: clubs, museums: museums))
        let treeB = try home.write("b.level1.json", Self.level1(generation: "gen-b", clubs: clubs, museums: museums))
        let cli = CLIRunner(database: home.path("hub.sqlite"), home: home.url.path)
        let first = try cli.run(["import", treeA.path], timeout: 120)
        #expect(first.status == 0, "\(first.stderr)")
        let server = try ServeProcess(arguments: ["--db", home.path("hub.sqlite"), "--max-features", "100000"],
                                      environment: cli.environment)

        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var answers: [String: Int] = [:]
            var mixed: [String] = []
            var failures: [String] = []
            var stop = false
            var shouldStop: Bool { lock.withLock { stop } }

            func check(_ source: String, _ status: Int32, _ body: String) {
                lock.withLock {
                    guard status == 0 || status == 200 else {
                        failures.append("\(source): \(status) \(body.prefix(300))")
                        return
                    }
                    answers[source, default: 0] += 1
                    let found = SnapshotReadTests.generations(in: body)
                    if found.count != 1 { mixed.append("\(source): \(found)") }
                }
            }
        }
        let tally = Tally()
        let clients: [(String, @Sendable () throws -> (Int32, String))] = [
            ("/api/bbox", {
                let answer = try server.get("/api/bbox?minlat=-90&minlon=-180&maxlat=90&maxlon=180")
                return (Int32(answer.status), answer.body)
            }),
            ("/api/search", {
                let answer = try server.get("/api/search?q=generated")
                return (Int32(answer.status), answer.body)
            }),
            ("export", {
                let export = try cli.run(["export", "geojson"])
                return (export.status, export.stdout + export.stderr)
            }),
            ("map", {
                let map = try cli.run(["map", "-o", "-"])
                return (map.status, map.stdout + map.stderr)
            }),
        ]
        let group = DispatchGroup()
        for (source, query) in clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while !tally.shouldStop {
                    do {
                        let (status, body) = try query()
                        tally.check(source, status, body)
                    } catch {
                        tally.lock.withLock { tally.failures.append("\(source): \(error)") }
                    }
                }
            }
        }
        // Three commits, each replacing every organization's website, while the clients ask.
        var imports: [CLIRunner.Result] = []
        for tree in [treeB, treeA, treeB] {
            imports.append(try cli.run(["import", tree.path], timeout: 120))
        }
        tally.lock.withLock { tally.stop = true }
        group.wait()
        _ = server.stop()

        #expect(imports.allSatisfy { $0.status == 0 }, "\(imports.map(\.stderr))")
        #expect(imports.allSatisfy { $0.stdout.contains("\(clubs + museums) changed") }, "\(imports.map(\.stdout))")
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        #expect(tally.mixed.isEmpty, "answers with both generations (or none): \(tally.mixed.prefix(5)) of \(tally.answers)")
        #expect(tally.answers.count == clients.count && tally.answers.values.allSatisfy { $0 >= 2 }, "\(tally.answers)")
    }
}
