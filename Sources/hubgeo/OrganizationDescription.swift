import HubGeo

/// The human-readable page about one organization that `hubgeo show` prints.
struct OrganizationDescription {
    let organization: Organization
    /// The cached localized place for `--lang`, if asked.
    let localized: LocalizedPlace?

    init(_ organization: Organization, localized: LocalizedPlace? = nil) {
        self.organization = organization
        self.localized = localized
    }

    var text: String {
        let o = organization
        var table = TextTable(headers: ["", ""])
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { table.append([label, value]) }
        }
        add("Name", o.fullName)
        add("Nickname", o.nickName)
        add("Type", o.type.rawValue)
        add("Town", o.town)
        if let localized {
            if localized.town == nil {
                add("Town (\(localized.language))", "\(o.town) (not localized)")
                add("Country (\(localized.language))", localized.country ?? "(not localized)")
            } else {
                add("Town (\(localized.language))", ResultPrinter.markedTown(localized))
                add("Country (\(localized.language))", localized.country ?? "(none: Nominatim found no place here)")
            }
        }
        add("Coordinates", "\(o.coordinates.latitude), \(o.coordinates.longitude)")
        add("Id", o.stableID)
        add("Website", o.website)
        add("Wikipedia", o.wikipedia)
        add("Level 2 URL", o.level2URL)
        add("Maintainer", o.maintainerEmail)
        add("Fotobond number", o.fotobondNumber.map(String.init))
        if let count = o.memberCount {
            add("Members", "\(count) current (\(o.members.count) listed)")
        }
        for remark in o.remarks { add("Remark (\(remark.language))", remark.value) }
        add("Level 1 file", o.level1Source)
        add("Level 2 file", o.level2Source)
        var text = table.render(includeHeader: false)
        if let localized, localized.townSource == .level1 {
            text += "\n\n" + ResultPrinter.level1Legend(language: localized.language)
        }
        if !o.overrides.isEmpty {
            text += "\n\nLevel 2 overrides:"
            for override in o.overrides {
                text += "\n  \(override.field): \(override.level1Value ?? "(none)") -> \(override.level2Value)"
            }
        }
        return text
    }
}
