import Foundation

extension String {
    /// The string folded for searching: case, accents and width ignored ("Étoile" ~ "etoile").
    package var searchFolded: String {
        // Plain ASCII (most names) only needs lower case; anything else goes through Foundation.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
