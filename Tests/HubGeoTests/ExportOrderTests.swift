import Foundation
import GRDB
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoModel
@testable import HubGeoReader
import Testing

/// The exports' order (by type, then stable id) whether they scan the table in row id order (a
/// new database, imported in stable id order) or walk the stable id index (any other).
@Suite("Export order")
struct ExportOrderTests {
    static func importNew(into path: String) throws -> OrganizationStore {
        _ = try Importer(reader: DocumentReader(remoteFetch: nil)).run(root: .embedded(EmbeddedData.rootName), database: path)
        return try OrganizationStore(path: path)
    }

    static func rowIDOrderIsStableIDOrder(_ store: OrganizationStore) throws -> Bool {
        try store.database.read { db in try OrganizationStore.rowIDOrderIsStableIDOrder(db) }
    }

    /// The whole export, one type after the other, as `hubgeo export` writes it.
    static func export(_ store: OrganizationStore, kml: Bool, language: String? = nil) throws -> String {
        let sink = StringSink()
        let writer: OrganizationWriter = kml ? KMLWriter(sink: sink, language: language) : GeoJSONWriter(sink: sink, language: language)
        try writer.begin()
        try store.snapshot { store in
            for type in OrganizationType.allCases { try store.export(.all, filter: OrganizationFilter(type: type), to: writer) }
        }
        try writer.finish()
        return sink.text
    }

    @Test("A new database's row ids follow the stable ids; its scan writes the bytes the index walk writes")
    func scanEqualsIndexWalk() throws {
        let directory = try TemporaryDirectory()
        let scanned = try Self.importNew(into: directory.path("new.sqlite"))
        #expect(try Self.rowIDOrderIsStableIDOrder(scanned))
        // importData adds in reading order, which is not the stable ids' order.
        let walked = try ExportFixtures.embeddedStore(in: directory)
        try #require(try !Self.rowIDOrderIsStableIDOrder(walked))
        for kml in [false, true] {
            for language in [nil, "nl"] {
                let expected = try Self.export(walked, kml: kml, language: language)
                #expect(try Self.export(scanned, kml: kml, language: language) == expected, "kml: \(kml), language: \(language ?? "-")")
            }
        }
    }

    @Test("A re-import that adds an organization ahead of others leaves the export in stable id order")
    func addedOrganizationKeepsOrder() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.importNew(into: directory.path("hub.sqlite"))
        var data = try HubLoader(reader: DocumentReader(remoteFetch: nil)).load(root: .embedded(EmbeddedData.rootName))
        // Stable id 0...: sorts before every stored one, yet gets the highest row id.
        var added = ExportFixtures.plainOrganization(1, type: .club, latitude: 51.5, longitude: 5.5)
        while added.stableID.first != "0" {
            added.identity = OrganizationIdentity(town: added.town + "x", fullName: added.fullName)
        }
        data.organizations.append(added)
        try store.importData(data)
        #expect(try !Self.rowIDOrderIsStableIDOrder(store))
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(Self.export(store, kml: false).utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let keys = features.map { feature in
            ((feature["properties"] as? [String: Any])?["type"] as? String ?? "", feature["id"] as? String ?? "")
        }
        #expect(keys.count == data.organizations.count)
        #expect(keys.map(\.1).contains(added.stableID))
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
    }
}
