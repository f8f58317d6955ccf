import Foundation

/// The Photo Club Hub files built into hubgeo (from the repository's `Data/` folder),
/// used when no other source is given so that the tool works offline.
package enum EmbeddedData {
    /// The Level 1 root of the embedded include tree.
    package static let rootName = "root_.level1.json"

    /// The embedded file names, sorted.
    package static var fileNames: [String] { files.keys.sorted() }

    /// The bytes of one embedded file, or nil when no file has that name.
    package static func file(named name: String) -> Data? { files[name] }

    private static let files: [String: Data] = {
        var result: [String: Data] = [:]
        for entry in base64Files {
            result[entry.name] = Data(base64Encoded: entry.base64)
        }
        return result
    }()
}
