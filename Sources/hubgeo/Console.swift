import Foundation

/// Where hubgeo writes: results to stdout, notes and warnings to stderr.
enum Console {
    static func print(_ text: String) {
        Swift.print(text)
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
