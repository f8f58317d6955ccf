import Foundation
import HubGeo

/// One parser under fuzzing: takes any bytes, must never crash, hang or trap (throwing is fine).
public struct FuzzTarget: Sendable {
    public var name: String
    public var run: @Sendable (Data) -> Void

    public init(name: String, run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.run = run
    }
}

public enum FuzzTargets {
    /// Every target; each input is fed to all of them. Add a parser with one line here, e.g.
    /// `FuzzTarget(name: "nominatim") { _ = try? NominatimResponse.parse($0) },`
    public static let all: [FuzzTarget] = [
        FuzzTarget(name: "json") { _ = try? JSONParser().parse($0) },
        FuzzTarget(name: "level0") { _ = validator.validate(data: $0, name: "fuzz.level0.json") },
        FuzzTarget(name: "level1") { _ = validator.validate(data: $0, name: "fuzz.level1.json") },
        FuzzTarget(name: "level2") { _ = validator.validate(data: $0, name: "fuzz.level2.json") },
        FuzzTarget(name: "loader") { data in _ = try? loader(serving: data).load(root: .remote(rootURL)) },
    ]

    static let validator = Validator(reader: DocumentReader(remoteFetch: nil))
    static let rootURL = URL(string: "http://fuzz.invalid/root.level1.json")!

    /// The importer's loader over a "server" that has `data` as its root file and nothing else
    /// (includes and Level 2 files answer 404).
    static func loader(serving data: Data) -> HubLoader {
        HubLoader(reader: DocumentReader(remoteFetch: { url in url == rootURL ? data : nil }))
    }
}
