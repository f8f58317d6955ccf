import Foundation
@testable import HubGeoDatabase
@testable import HubGeoExport
@testable import HubGeoModel
@testable import HubGeoOutput
import HubGeoTestSupport
import Testing

@Suite("Export writers")
struct ExportWriterTests {
    static func geoJSON(_ matches: [PlaceMatch], language: String? = nil, pretty: Bool = false) throws -> (text: String, json: [String: Any]) {
        let sink = StringSink()
        let writer = GeoJSONWriter(sink: sink, language: language, pretty: pretty)
        try writer.begin()
        for match in matches { try writer.write(match) }
        try writer.finish()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(sink.text.utf8)) as? [String: Any])
        return (sink.text, json)
    }

    static func kml(_ matches: [PlaceMatch], language: String? = nil, pretty: Bool = false) throws -> (text: String, reader: KMLReader) {
        let sink = StringSink()
        let writer = KMLWriter(sink: sink, language: language, pretty: pretty)
        try writer.begin()
        for match in matches { try writer.write(match) }
        try writer.finish()
        return (sink.text, try KMLReader.read(Data(sink.text.utf8)))
    }

    @Test("GeoJSON: FeatureCollection, id, Point [lon, lat], properties, bbox, no crs", arguments: [false, true])
    func geoJSONShape(pretty: Bool) throws {
        let hostile = ExportFixtures.hostileOrganization
        let museum = ExportFixtures.plainOrganization(1, latitude: 52.0, longitude: -0.0000000001)
        let (_, json) = try Self.geoJSON([PlaceMatch(organization: hostile), PlaceMatch(organization: museum)], pretty: pretty)
        #expect(json["type"] as? String == "FeatureCollection")
        #expect(json["crs"] == nil)
        #expect(json["bbox"] as? [Double] == [0, -33.8688197, 151.2092955, 52])
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let first = features[0]
        #expect(first["type"] as? String == "Feature")
        #expect(first["id"] as? String == hostile.stableID)
        let geometry = try #require(first["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Point")
        #expect(geometry["coordinates"] as? [Double] == [151.2092955, -33.8688197])
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["name"] as? String == ExportFixtures.hostileName)
        #expect(properties["nickName"] as? String == hostile.nickName)
        #expect(properties["type"] as? String == "club")
        #expect(properties["town"] as? String == ExportFixtures.hostileTown)
        #expect(properties["website"] as? String == hostile.website)
        #expect(properties["remark"] as? String == ExportFixtures.hostileRemark)
        #expect(properties["remarkLanguage"] as? String == "EN")
        #expect(properties["fotobondNumber"] as? Int == 1234)
        #expect(properties["memberCount"] as? Int == 17)
        #expect(properties["wikipedia"] == nil && properties["language"] == nil && properties["localizedTown"] == nil)
        let second = try #require(features[1]["properties"] as? [String: Any])
        #expect(Set(second.keys) == ["name", "nickName", "type", "town"])
        #expect((features[1]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [0, 52])
    }

    @Test("GeoJSON output is valid UTF-8 with no raw control characters or U+2028/2029")
    func geoJSONBytes() throws {
        let (text, _) = try Self.geoJSON([PlaceMatch(organization: ExportFixtures.hostileOrganization)])
        #expect(String(validating: Array(text.utf8), as: UTF8.self) != nil)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(!text.contains("e-") && !text.contains("E-") && !text.contains("-0,") && !text.contains("-0]"))
    }

    @Test("An empty export is an empty FeatureCollection without bbox, and an empty KML document")
    func empty() throws {
        let (_, json) = try Self.geoJSON([])
        #expect((json["features"] as? [Any])?.isEmpty == true)
        #expect(json["bbox"] == nil)
        let (_, kml) = try Self.kml([])
        #expect(kml.placemarks.isEmpty && kml.folders.isEmpty && kml.styleIDs == ["club", "museum"])
    }

    @Test("Remarks: chosen language, else English, else any; localized place when the query has one")
    func languages() throws {
        var organization = ExportFixtures.hostileOrganization
        let nl = ExportProperties(PlaceMatch(organization: organization), language: "nl")
        #expect(nl.string("remarkLanguage") == "NL" && nl.string("remark")?.hasPrefix("Opmerking") == true)
        #expect(ExportProperties(PlaceMatch(organization: organization), language: "de").string("remarkLanguage") == "EN")
        organization.remarks = [LocalizedRemark(language: "FR", value: "Remarque")]
        #expect(ExportProperties(PlaceMatch(organization: organization), language: "de").string("remark") == "Remarque")
        organization.remarks = []
        let localized = LocalizedPlace(language: "nl", town: "Sydney (NL)", country: "Australië")
        let properties = ExportProperties(PlaceMatch(organization: organization, localized: localized), language: "nl")
        #expect(properties.fields.map(\.name) == ["name", "nickName", "type", "town", "localizedTown", "localizedTownSource",
                                                  "localizedCountry", "language", "website", "fotobondNumber", "memberCount"])
        #expect(properties.string("localizedCountry") == "Australië" && properties.string("language") == "nl")
        #expect(properties.string("localizedTownSource") == "nominatim")
        let partial = ExportProperties(PlaceMatch(organization: organization, localized: LocalizedPlace(language: "ja", town: nil, country: "")))
        #expect(partial.string("language") == "ja" && partial["localizedTown"] == nil && partial["localizedCountry"] == nil)
        #expect(partial["localizedTownSource"] == nil)
        let html = KMLBalloonReference.html(properties)
        #expect(html.contains("Town: Sydney (NL)") && html.contains("Country: Australië"))
    }

    @Test("Museums carry no memberCount; empty strings are omitted")
    func omissions() throws {
        var museum = ExportFixtures.plainOrganization(2, type: .museum, latitude: 1, longitude: 2)
        museum.memberCount = 5
        museum.website = ""
        museum.nickName = ""
        let properties = ExportProperties(PlaceMatch(organization: museum))
        #expect(properties.fields.map(\.name) == ["name", "type", "town"])
    }

    @Test("KML: styles, a folder per type, placemarks with name, description, style, data and lon,lat", arguments: [false, true])
    func kmlShape(pretty: Bool) throws {
        let hostile = ExportFixtures.hostileOrganization
        let museum = ExportFixtures.plainOrganization(3, latitude: 48.85, longitude: 2.35)
        let (text, kml) = try Self.kml([PlaceMatch(organization: hostile), PlaceMatch(organization: museum)], pretty: pretty)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
        #expect(!text.contains("<![CDATA["))
        #expect(kml.styleIDs == ["club", "museum"])
        #expect(kml.folders == ["Clubs", "Museums"])
        #expect(kml.placemarks.count == 2)
        let club = kml.placemarks[0]
        #expect(club.id == "org-" + hostile.stableID)
        #expect(club.name == ExportFixtures.hostileName)
        #expect(club.styleUrl == "#club" && club.folder == "Clubs")
        #expect(club.coordinates == "151.2092955,-33.8688197")
        #expect(club.dataOrder == ["name", "nickName", "type", "town", "website", "remark", "remarkLanguage", "fotobondNumber", "memberCount"])
        #expect(club.data["remark"] == ExportFixtures.hostileRemark)
        #expect(club.data["town"] == ExportFixtures.hostileTown)
        #expect(club.data["nickName"] == hostile.nickName)
        #expect(club.data["fotobondNumber"] == "1234")
        let description = try #require(club.description)
        #expect(description.contains("Town: Town &quot;quoted&quot; \\ &lt;town&gt; &amp; co"))
        #expect(description.contains("<a href=\"https://example.org/?a=1&amp;b=&quot;2&quot;&lt;3&gt;\">"))
        #expect(!description.contains("<b>"))
        #expect(kml.placemarks[1].styleUrl == "#museum" && kml.placemarks[1].folder == "Museums")
        #expect(kml.placemarks[1].coordinates == "2.35,48.85")
    }

    @Test("Hostile strings round-trip exactly through both writers (Foundation parsers)")
    func hostileRoundTrip() throws {
        let organization = ExportFixtures.hostileOrganization
        let (_, json) = try Self.geoJSON([PlaceMatch(organization: organization)], pretty: true)
        let properties = try #require(((json["features"] as? [[String: Any]])?.first)?["properties"] as? [String: Any])
        let (_, kml) = try Self.kml([PlaceMatch(organization: organization)], pretty: true)
        let placemark = try #require(kml.placemarks.first)
        for (field, expected) in [("name", organization.fullName), ("nickName", organization.nickName), ("town", organization.town),
                                  ("remark", ExportFixtures.hostileRemark), ("website", organization.website!)] {
            #expect(properties[field] as? String == expected, "GeoJSON \(field)")
            #expect(placemark.data[field] == expected, "KML \(field)")
        }
    }

    @Test("forEach streams exactly what near, within and search list")
    func streamingMatchesQueries() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportFixtures.embeddedStore(in: directory)
        func ids(_ matches: [PlaceMatch]) -> [String] { matches.map(\.organization.stableID).sorted() }
        func streamed(_ selection: OrganizationSelection, _ filter: OrganizationFilter) throws -> [PlaceMatch] {
            var result: [PlaceMatch] = []
            try store.forEach(selection, filter: filter) { result.append($0) }
            #expect(try store.count(selection, filter: filter) == result.count)
            return result
        }
        for type in [nil, OrganizationType.club, .museum] {
            let filter = OrganizationFilter(type: type)
            #expect(ids(try streamed(.all, filter)) == ids(try store.all(filter: filter)))
            for (latitude, longitude, km) in [(51.4, 5.4, 20.0), (51.44, 5.48, 3.0), (52.37, 4.9, 80.0), (0, 0, 20_000), (-33.9, 151.2, 50)] {
                let center = GeoPoint(latitude: latitude, longitude: longitude)
                let query = try store.near(center, radiusMeters: km * 1000, filter: filter)
                let stream = try streamed(.near(center, radiusMeters: km * 1000), filter)
                #expect(ids(stream) == ids(query), "near \(latitude) \(longitude) \(km) \(String(describing: type))")
                let distances = Dictionary(uniqueKeysWithValues: query.map { ($0.organization.stableID, $0.distanceMeters) })
                #expect(stream.allSatisfy { distances[$0.organization.stableID]! == $0.distanceMeters })
            }
            for (west, south, east, north) in [(5.3, 51.3, 5.6, 51.5), (-180.0, -90.0, 180.0, 90.0), (170, -50, -170, 50), (4, 51, 6, 52)] {
                #expect(ids(try streamed(.within(west: west, south: south, east: east, north: north), filter))
                        == ids(try store.within(west: west, south: south, east: east, north: north, filter: filter)))
            }
            for text in ["foto", "museum", "Eindhoven", "zzz"] {
                #expect(ids(try streamed(.search(text), filter)) == ids(try store.search(text, filter: filter)))
            }
        }
        let all = try streamed(.all, .init())
        #expect(all.count == 131)
        #expect(all.map(\.organization.stableID) == all.map(\.organization.stableID).sorted(), "ordered by stable id")
        let page = try streamed(.all, OrganizationFilter(limit: 5, offset: 10))
        #expect(page.map(\.organization.stableID) == Array(all[10..<15]).map(\.organization.stableID))
    }

    @Test("An output file leaves nothing behind on failure and replaces the file on commit")
    func atomicFile() throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.path("out.json")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let sink = try OutputFile(path: path)
            try sink.write("half")
            sink.abandon()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.json"])
        let sink = try OutputFile(path: path)
        for _ in 0..<10_000 { try sink.write("0123456789") }
        try sink.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 100_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.json"])
        #expect(throws: ExportError.self) { try OutputFile(path: directory.path("missing/dir/out.json")) }
    }
}
