import HubGeoJSON
import HubGeoModel

/// The fields that a Level 1 entry and a Level 2 `club` record share, as read from JSON.
package struct OrganizationRecord {
    package var identity: OrganizationIdentity
    var nickName: String
    var coordinates: GeoPoint
    var website: String?
    var wikipedia: String?
    var level2URL: String?
    var maintainerEmail: String?
    var fotobondNumber: Int?
    var remarks: [LocalizedRemark]

    /// Reads one record. A problem with a mandatory field throws (the record is unusable);
    /// a problem with one remark drops that remark and is returned as a warning.
    static func read(_ cursor: JSONCursor) throws(JSONCursor.Problem) -> (record: OrganizationRecord, warnings: [JSONCursor.Problem]) {
        _ = try cursor.objectMembers()
        let idPlus = try cursor.requiredMember("idPlus")
        let identity = OrganizationIdentity(town: try idPlus.requiredIdentityString("town"),
                                            fullName: try idPlus.requiredIdentityString("fullName"))
        let nickName = try idPlus.requiredIdentityString("nickName")
        let coordinates = try readCoordinates(try cursor.requiredMember("coordinates"))

        var record = OrganizationRecord(identity: identity, nickName: nickName, coordinates: coordinates, remarks: [])
        var warnings: [JSONCursor.Problem] = []
        guard let optional = cursor.member("optional") else { return (record, warnings) }
        _ = try optional.objectMembers()
        record.website = try optional.optionalString("website")
        record.wikipedia = try optional.optionalString("wikipedia")
        record.level2URL = try optional.optionalString("level2URL")
        record.maintainerEmail = try optional.optionalString("maintainerEmail")
        if let nlSpecific = optional.member("nlSpecific") {
            _ = try nlSpecific.objectMembers()
            record.fotobondNumber = try nlSpecific.optionalInteger("fotobondNumber")
        }
        if let remarks = optional.member("remark") {
            for element in try remarks.elements() {
                do throws(JSONCursor.Problem) {
                    let language = try element.requiredString("language").uppercased()
                    let value = try element.requiredString("value")
                    if record.remarks.contains(where: { $0.language == language }) {
                        warnings.append(element.problem("a second remark in language \(language) is ignored", rule: "duplicate-remark-language"))
                    } else {
                        record.remarks.append(LocalizedRemark(language: language, value: value))
                    }
                } catch {
                    warnings.append(JSONCursor.Problem(path: error.path, line: error.line, message: "\(error.message); remark ignored", rule: error.rule))
                }
            }
            record.remarks.sort { $0.language < $1.language }
        }
        return (record, warnings)
    }

    static func readCoordinates(_ cursor: JSONCursor) throws(JSONCursor.Problem) -> GeoPoint {
        let latitudeCursor = try cursor.requiredMember("latitude")
        let longitudeCursor = try cursor.requiredMember("longitude")
        let latitude = try latitudeCursor.number()
        let longitude = try longitudeCursor.number()
        guard (-90...90).contains(latitude) else {
            throw latitudeCursor.problem("latitude \(latitude) is outside [-90, 90]", rule: "coordinates-out-of-range")
        }
        guard (-180...180).contains(longitude) else {
            throw longitudeCursor.problem("longitude \(longitude) is outside [-180, 180]", rule: "coordinates-out-of-range")
        }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The record as an organization, before any Level 2 file is merged.
    func organization(type: OrganizationType, source: String) -> Organization {
        Organization(type: type, identity: identity, nickName: nickName, coordinates: coordinates,
                     website: website, wikipedia: wikipedia, level2URL: type == .club ? level2URL : nil,
                     maintainerEmail: maintainerEmail, fotobondNumber: fotobondNumber, remarks: remarks,
                     level1Source: source)
    }
}
