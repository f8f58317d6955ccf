import HubGeoJSON
import HubGeoModel

/// One parsed Level 2 file: a club record and its members.
package struct Level2Document {
    package var club: OrganizationRecord
    var members: [Member] = []
    package var diagnostics: [Diagnostic] = []

    /// Reads a Level 2 document; throws a diagnostic when its `club` record is unusable.
    package init(json: JSONValue, file: String, skipSeverity: Diagnostic.Severity = .warning) throws(LoadError) {
        guard case .object = json else {
            throw .invalidDocument(file: file, jsonPath: "", reason: "a Level 2 file must be a JSON object, found \(json.kindDescription)")
        }
        let root = JSONCursor(json)
        do throws(JSONCursor.Problem) {
            let (club, warnings) = try OrganizationRecord.read(try root.requiredMember("club"))
            self.club = club
            diagnostics += warnings.map { $0.diagnostic(severity: skipSeverity, file: file) }
        } catch {
            throw .invalidDocument(file: file, jsonPath: error.path, reason: error.message, rule: error.diagnosticRule)
        }
        guard let members = root.member("members") else { return }
        guard case .array = members.value else {
            throw .invalidDocument(file: file, jsonPath: members.path, reason: "expected an array, found \(members.value.kindDescription)")
        }
        for entry in (try? members.elements()) ?? [] {
            do throws(JSONCursor.Problem) {
                self.members.append(try Self.readMember(entry))
            } catch {
                diagnostics.append(Diagnostic(severity: skipSeverity, rule: error.diagnosticRule, file: file, jsonPath: error.path,
                                              line: error.line ?? entry.firstMemberLine,
                                              message: "\(error.message); member skipped"))
            }
        }
    }

    static func readMember(_ cursor: JSONCursor) throws(JSONCursor.Problem) -> Member {
        let name = try cursor.requiredMember("name")
        var member = Member(givenName: try name.requiredString("givenName"),
                            infixName: try name.optionalString("infixName") ?? "",
                            familyName: try name.requiredString("familyName"))
        if let status = cursor.member("optional")?.member("status") {
            member.isFormerMember = try status.optionalBool("isFormerMember") ?? false
            member.isDeceased = try status.optionalBool("isDeceased") ?? false
            member.isProspectiveMember = try status.optionalBool("isProspectiveMember") ?? false
            member.isHonoraryMember = try status.optionalBool("isHonoraryMember") ?? false
        }
        return member
    }
}
