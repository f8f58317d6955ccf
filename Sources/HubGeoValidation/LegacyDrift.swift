import Foundation
import HubGeoJSON
import HubGeoModel
import HubGeoReader

/// A folder holding both the `root_.level1.json` tree and the legacy flat `root.level1.json`
/// (still fetched by app versions before 2.9.0): where the two disagree, as warnings. The first
/// says how many organizations each holds; then one per organization in only one of them (at
/// its entry), and one per organization whose Level 1 fields differ (at its legacy entry, the
/// copy that usually lags). Level 2 files are not applied: the two Level 1 views are compared.
enum LegacyDrift {
    static let legacyName = "root.level1.json"

    static func diagnostics(tree: TreeInspection, legacy: TreeInspection, legacyFile: String) -> [Diagnostic] {
        var treeByIdentity: [OrganizationIdentity: Organization] = [:]
        for organization in tree.data.organizations where treeByIdentity[organization.identity] == nil {
            treeByIdentity[organization.identity] = organization
        }
        var legacyByIdentity: [OrganizationIdentity: Organization] = [:]
        for organization in legacy.data.organizations where legacyByIdentity[organization.identity] == nil {
            legacyByIdentity[organization.identity] = organization
        }
        func place(_ identity: OrganizationIdentity, in inspection: TreeInspection) -> (String, String) {
            let place = inspection.places[identity]
            return (place?.file.description ?? legacyFile, place?.jsonPath ?? "")
        }
        var details: [Diagnostic] = []
        var onlyLegacy = 0, onlyTree = 0, differ = 0
        for organization in legacy.data.organizations where treeByIdentity[organization.identity] == nil {
            onlyLegacy += 1
            let (file, path) = place(organization.identity, in: legacy)
            details.append(Diagnostic(severity: .warning, rule: .legacyDrift, file: file, jsonPath: path,
                                      message: "\(organization.type.rawValue) \(organization.identity) is in the legacy \(legacyName) "
                                          + "but not in the root_.level1.json tree"))
        }
        for organization in tree.data.organizations where legacyByIdentity[organization.identity] == nil {
            onlyTree += 1
            let (file, path) = place(organization.identity, in: tree)
            details.append(Diagnostic(severity: .warning, rule: .legacyDrift, file: file, jsonPath: path,
                                      message: "\(organization.type.rawValue) \(organization.identity) is not in the legacy \(legacyName): "
                                          + "app versions before 2.9.0 do not show it"))
        }
        for old in legacy.data.organizations {
            guard let new = treeByIdentity[old.identity] else { continue }
            var changes = FieldChange.changes(from: old, to: new)
            // The same remarks in another order: nothing to the app, but the files differ.
            let oldOrder = remarkLanguages(old.identity, in: legacy), newOrder = remarkLanguages(old.identity, in: tree)
            if changes.isEmpty, oldOrder != newOrder, Set(oldOrder) == Set(newOrder) {
                changes.append(FieldChange(field: "remark order", old: oldOrder.joined(separator: ", "),
                                           new: newOrder.joined(separator: ", ") + ", which the app does not mind"))
            }
            guard !changes.isEmpty else { continue }
            differ += 1
            let (file, path) = place(old.identity, in: legacy)
            let (treeFile, treePath) = place(old.identity, in: tree)
            details.append(Diagnostic(severity: .warning, rule: .legacyDrift, file: file, jsonPath: path,
                                      message: "\(old.type.rawValue) \(old.identity) differs from the tree "
                                          + "(\((treeFile as NSString).lastPathComponent): \(treePath)): "
                                          + changes.map { "\($0.description)" }.joined(separator: "; ")
                                          + " (legacy -> tree)"))
        }
        guard !details.isEmpty else { return [] }
        let summary = Diagnostic(
            severity: .warning, rule: .legacyDrift, file: legacyFile, jsonPath: "",
            message: "the legacy \(legacyName) (\(legacyByIdentity.count) organizations) and the root_.level1.json tree "
                + "(\(treeByIdentity.count)) disagree: \(onlyLegacy) only in the legacy file, \(onlyTree) only in the tree, "
                + "\(differ) that differ")
        return [summary] + details
    }

    /// The remark languages of an organization's entry, in the file's order.
    static func remarkLanguages(_ identity: OrganizationIdentity, in inspection: TreeInspection) -> [String] {
        guard let place = inspection.places[identity],
              let document = inspection.documents.first(where: { $0.location == place.file }),
              let bracket = place.jsonPath.firstIndex(of: "["),
              let index = Int(place.jsonPath[place.jsonPath.index(after: bracket)...].dropLast()),
              case .array(let entries)? = document.json[String(place.jsonPath[..<bracket])], entries.indices.contains(index),
              case .array(let remarks)? = entries[index]["optional"]?["remark"] else { return [] }
        return remarks.compactMap { if case .string(let language)? = $0["language"] { language.uppercased() } else { nil } }
    }
}
