import Foundation

/// Where hubgeo writes: results to stdout, notes and warnings to stderr.
enum Console {
    static func print(_ text: String, terminator: String = "\n") {
        Swift.print(text, terminator: terminator)
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
