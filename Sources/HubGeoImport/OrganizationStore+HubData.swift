import Foundation
import HubGeoDatabase
import HubGeoReader

extension OrganizationStore {
    /// Makes the database hold exactly `data`: adds new organizations, updates changed ones,
    /// deletes those no longer in the data. All in one transaction: if anything fails, the
    /// database keeps its previous content.
    @discardableResult
    package func importData(_ data: HubData, now: Date = Date()) throws -> ImportSummary {
        try importOrganizations(source: data.source, now: now) { add in
            for organization in data.organizations { try add(organization) }
        }
    }
}
