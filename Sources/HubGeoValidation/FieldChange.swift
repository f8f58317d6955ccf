import HubGeoModel

/// One field that differs between two versions of an organization, each side as shown to people
/// (nil: absent).
package struct FieldChange: Sendable, Codable, Equatable {
    package var field: String
    package var old: String?
    package var new: String?

    /// The fields of `old` and `new` (the same organization) that differ: type, nickname,
    /// coordinates, website, Wikipedia, Level 2 URL, e-mail, Fotobond number, each remark by
    /// language (`remark.EN`) and the member count. `coordinates: false` leaves coordinates out
    /// (``TreeDiff`` reports them as a move).
    package static func changes(from old: Organization, to new: Organization, coordinates: Bool = true) -> [FieldChange] {
        var changes: [FieldChange] = []
        func compare(_ field: String, _ a: String?, _ b: String?) {
            if a != b { changes.append(FieldChange(field: field, old: a, new: b)) }
        }
        compare("type", old.type.rawValue, new.type.rawValue)
        compare("nickName", old.nickName, new.nickName)
        if coordinates { compare("coordinates", describe(old.coordinates), describe(new.coordinates)) }
        compare("website", old.website, new.website)
        compare("wikipedia", old.wikipedia, new.wikipedia)
        compare("level2URL", old.level2URL, new.level2URL)
        compare("maintainerEmail", old.maintainerEmail, new.maintainerEmail)
        compare("fotobondNumber", old.fotobondNumber.map(String.init), new.fotobondNumber.map(String.init))
        let oldRemarks = Dictionary(old.remarks.map { ($0.language.uppercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let newRemarks = Dictionary(new.remarks.map { ($0.language.uppercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        for language in Set(oldRemarks.keys).union(newRemarks.keys).sorted() {
            compare("remark.\(language)", oldRemarks[language], newRemarks[language])
        }
        compare("members", old.memberCount.map(String.init), new.memberCount.map(String.init))
        return changes
    }

    /// "(51.39184, 5.46144)": the coordinates as written (shortest exact decimals).
    static func describe(_ point: GeoPoint) -> String {
        "(\(point.latitude), \(point.longitude))"
    }

    /// `field "old" -> "new"`, for messages.
    package var description: String {
        func quoted(_ text: String?) -> String {
            guard let text else { return "(none)" }
            let short = text.count <= 60 ? text : String(text.prefix(57)) + "..."
            return ["coordinates", "members", "fotobondNumber", "type", "remark order"].contains(field) ? short : "\"\(short)\""
        }
        return "\(field) \(quoted(old)) -> \(quoted(new))"
    }
}
