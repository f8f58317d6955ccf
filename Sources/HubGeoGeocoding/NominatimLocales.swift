/// Nominatim's choice of a name in a language, as in its `Locales` class (5.x): for the
/// languages asked, `name:XX`, then `name`, `brand`, then `official_name:XX`, `short_name:XX`,
/// then `official_name`, `short_name`, `ref`; each tag also in its `_place_` form (names merged
/// from a linked place node). With a single name, that name whatever its tag.
///
/// hubgeo uses it to derive a town name in another language from `namedetails`, only where
/// that is certain to match what a request in that language would return (see ``Localizer``).
package enum NominatimLocales {
    /// The tags tried, in order, for `languages`.
    package static func nameTags(languages: [String]) -> [String] {
        var tags: [String] = []
        func add(_ tag: String) { tags += [tag, "_place_\(tag)"] }
        for language in languages { add("name:\(language)") }
        add("name")
        add("brand")
        for tag in ["official_name", "short_name"] {
            for language in languages { add("\(tag):\(language)") }
        }
        for tag in ["official_name", "short_name", "ref"] { add(tag) }
        return tags
    }

    /// The name Nominatim shows for an object with these raw name tags, or nil with none.
    package static func displayName(_ names: [ReverseGeocodeResult.NameTag], languages: [String]) -> String? {
        guard let first = names.first else { return nil }
        if names.count == 1 { return first.value }
        var byTag: [String: String] = [:]
        for tag in names where byTag[tag.key] == nil { byTag[tag.key] = tag.value }
        for tag in nameTags(languages: languages) {
            if let value = byTag[tag] { return value }
        }
        return first.value
    }

    /// True for a plain language code ("en", "nld") that Nominatim uses as-is; region
    /// variants and lists are never derived, always asked.
    package static func isPlainLanguage(_ language: String) -> Bool {
        (2...3).contains(language.count) && language.allSatisfy { $0.isASCII && $0.isLowercase }
    }
}
