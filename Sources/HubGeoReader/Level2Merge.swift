import HubGeoModel

extension Organization {
    /// Applies a club's Level 2 record under the Photo Club Hub rules: Level 2 overrules
    /// `coordinates`, `website`, `wikipedia`, `nlSpecific.fotobondNumber`, `maintainerEmail`
    /// and `remark` (per language); `level2URL` is never overruled; an absent Level 2 field
    /// never clears a Level 1 value. Each change is recorded in `overrides`.
    mutating func merge(level2 document: Level2Document, source: String) {
        let club = document.club
        hasLevel2 = true
        level2Source = source
        members = document.members
        memberCount = document.members.filter(\.isCurrent).count

        if club.coordinates != coordinates {
            overrides.append(FieldOverride(field: "coordinates", level1Value: Self.describe(coordinates),
                                           level2Value: Self.describe(club.coordinates)))
            coordinates = club.coordinates
        }
        Self.overrule(&website, with: club.website, field: "website", log: &overrides)
        Self.overrule(&wikipedia, with: club.wikipedia, field: "wikipedia", log: &overrides)
        Self.overrule(&maintainerEmail, with: club.maintainerEmail, field: "maintainerEmail", log: &overrides)
        if let number = club.fotobondNumber, number != fotobondNumber {
            overrides.append(FieldOverride(field: "nlSpecific.fotobondNumber", level1Value: fotobondNumber.map(String.init),
                                           level2Value: String(number)))
            fotobondNumber = number
        }
        for remark in club.remarks {
            let existing = remarks.firstIndex { $0.language == remark.language }
            let old = existing.map { remarks[$0].value }
            guard old != remark.value else { continue }
            overrides.append(FieldOverride(field: "remark[\(remark.language)]", level1Value: old, level2Value: remark.value))
            if let existing { remarks[existing] = remark } else { remarks.append(remark) }
        }
        remarks.sort { $0.language < $1.language }
    }

    private static func overrule(_ value: inout String?, with level2: String?, field: String, log: inout [FieldOverride]) {
        guard let level2, level2 != value else { return }
        log.append(FieldOverride(field: field, level1Value: value, level2Value: level2))
        value = level2
    }

    static func describe(_ point: GeoPoint) -> String { "\(point.latitude), \(point.longitude)" }
}
