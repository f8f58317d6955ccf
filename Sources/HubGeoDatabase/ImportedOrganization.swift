import HubGeoModel

/// An organization for an import, with what its row needs beside its fields computed once: its
/// identity's hash and stable id, its digests and its search key. An import that reads on a
/// thread of its own makes these there, so that the writer's thread only writes (`OverlappedLoad`
/// in HubGeoImport: computing them took about a tenth of the writer's time in a new import of
/// 200,000 organizations).
package struct ImportedOrganization: Sendable {
    /// The organization as read.
    package let organization: Organization
    /// ``OrganizationIdentity/stableHash``.
    let stableHash: UInt64
    /// ``OrganizationIdentity/stableID``, the hash in hex.
    let stableID: String
    let fingerprint: OrganizationStore.Fingerprint
    /// What `search` matches: the full name, nickname and town, folded.
    let searchKey: String

    /// Computes what the rows of `organization` need.
    package init(_ organization: Organization) {
        self.organization = organization
        stableHash = organization.identity.stableHash
        stableID = FNV1a.hex(stableHash)
        fingerprint = OrganizationStore.Fingerprint(organization)
        searchKey = [organization.fullName, organization.nickName, organization.town].joined(separator: "\u{1F}").searchFolded
    }
}
