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
    /// Every target; each input is fed to all of them. Add a parser with one line here.
    public static let all: [FuzzTarget] = [
        FuzzTarget(name: "json") { _ = try? JSONParser().parse($0) },
        FuzzTarget(name: "level0") { _ = validator.validate(data: $0, name: "fuzz.level0.json") },
        FuzzTarget(name: "level1") { _ = validator.validate(data: $0, name: "fuzz.level1.json") },
        FuzzTarget(name: "level2") { _ = validator.validate(data: $0, name: "fuzz.level2.json") },
        FuzzTarget(name: "loader") { data in _ = try? loader(serving: data).load(root: .remote(rootURL)) },
        FuzzTarget(name: "nominatim", run: nominatim),
    ]

    /// A Nominatim answer as the geocoder reads it: the reverse result, the error message of a
    /// failed request, and the town name derived from its name tags.
    static func nominatim(_ data: Data) {
        _ = NominatimResponseParser.errorMessage(in: data)
        guard let result = try? NominatimResponseParser.parse(data) else { return }
        if let names = result.nameDetails {
            _ = NominatimLocales.displayName(names, languages: ["en"])
            _ = NominatimLocales.displayName(names, languages: ["nl", "fr"])
        }
    }

    static let validator = Validator(reader: DocumentReader(remoteFetch: nil))
    static let rootURL = URL(string: "http://fuzz.invalid/root.level1.json")!

    /// The importer's loader over a "server" that has `data` as its root file and nothing else
    /// (includes and Level 2 files answer 404).
    static func loader(serving data: Data) -> HubLoader {
        HubLoader(reader: DocumentReader(remoteFetch: { url in url == rootURL ? data : nil }))
    }
}
