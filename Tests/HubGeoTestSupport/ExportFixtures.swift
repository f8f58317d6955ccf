import HubGeo

/// Stores and organizations for the export tests.
package enum ExportFixtures {
    /// A store in `directory` holding the data built into hubgeo.
    package static func embeddedStore(in directory: TemporaryDirectory, name: String = "embedded.sqlite") throws -> OrganizationStore {
        let data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        let store = try OrganizationStore(path: directory.path(name))
        try store.importData(data)
        return store
    }

    /// A store in `directory` holding exactly `organizations`.
    package static func store(_ organizations: [Organization], in directory: TemporaryDirectory,
                      name: String = "test.sqlite") throws -> OrganizationStore {
        let store = try OrganizationStore(path: directory.path(name))
        try store.importData(HubData(organizations: organizations, diagnostics: [], level1Files: [], level2Files: [],
                                     orphanLevel2Files: [], source: "tests"))
        return store
    }

    /// Strings that break naive JSON and XML writers.
    package static let hostileName = "Club \"<&]]>\" 'single' back\\slash \\u0041 new\nline\ttab עברית 📷👩‍👩‍👧 \u{2028}\u{2029} end"
    package static let hostileRemark = "Remark <b>bold</b> & \"]]>\" ]]]]><![CDATA[ \\ \n line two\t tab مرحبا بالعالم 🏛️ \u{2028} x < y > z &amp; done"
    package static let hostileTown = "Town \"quoted\" \\ <town> & co"

    package static var hostileOrganization: Organization {
        Organization(type: .club, identity: OrganizationIdentity(town: hostileTown, fullName: hostileName),
                     nickName: "nick\"<&]]>'\\", coordinates: GeoPoint(latitude: -33.8688197, longitude: 151.2092955),
                     website: "https://example.org/?a=1&b=\"2\"<3>", wikipedia: nil, fotobondNumber: 1234,
                     remarks: [LocalizedRemark(language: "EN", value: hostileRemark),
                               LocalizedRemark(language: "NL", value: "Opmerking \"NL\" <&> \u{2028}")],
                     memberCount: 17, hasLevel2: true, level1Source: "test")
    }

    package static func plainOrganization(_ index: Int, type: OrganizationType = .museum, latitude: Double, longitude: Double) -> Organization {
        Organization(type: type, identity: OrganizationIdentity(town: "Town \(index)", fullName: "Organization \(index)"),
                     nickName: "org\(index)", coordinates: GeoPoint(latitude: latitude, longitude: longitude),
                     level1Source: "test")
    }
}
