import Foundation

extension String {
    /// The string folded for searching: case, accents and width ignored ("Étoile" ~ "etoile").
    public var searchFolded: String {
        folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
