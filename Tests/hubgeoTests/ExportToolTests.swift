import Foundation
@testable import HubGeoDatabase
@testable import HubGeoExport
import HubGeoModel
import HubGeoTestSupport
import Testing

/// The exports as users' tools see them: GDAL reads them back, xmllint validates the KML
/// against the OGC schema, and the CLI filters match the queries.
/// Needs Debian gdal-bin (ogrinfo, ogr2ogr) and libxml2-utils (xmllint).
@Suite("Export through GDAL, xmllint and the CLI")
struct ExportToolTests {
    /// The OGC schema, fetched by `make test` (scripts/fetch-kml-schema.py; see docs/kml-schema.md).
    static let schema = (ProcessInfo.processInfo.environment["HUBGEO_KML_SCHEMA_DIR"]
        ?? TestPaths.packageRoot.appendingPathComponent(".build/kml-schema").path) + "/ogckml22.xsd"

    /// Exports with the built binary into `directory`; returns the file's path.
    static func export(_ format: String, _ arguments: [String] = [], db: String, in directory: TemporaryDirectory,
                       name: String? = nil) throws -> String {
        let path = directory.path(name ?? "export.\(format)")
        let result = try CommandRunner.hubgeo(["export", format, "--db", db, "-o", path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    static func expectedProperties(_ store: OrganizationStore) throws -> [String: ExportProperties] {
        Dictionary(uniqueKeysWithValues: try store.all().map { ($0.organization.stableID, ExportProperties($0)) })
    }

    static func text(_ value: ExportProperties.Value) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        }
    }

    @Test("ogrinfo reads every GeoJSON feature of the embedded data back with its coordinates and fields")
    func geoJSONThroughOGR() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportFixtures.embeddedStore(in: directory)
        let expected = try Self.expectedProperties(store)
        let path = try Self.export("geojson", db: store.path, in: directory)
        let summary = try CommandRunner.tool("ogrinfo", ["-ro", "-al", "-so", path], package: "gdal-bin")
        #expect(summary.status == 0 && summary.text.contains("Feature Count: \(expected.count)") && summary.text.contains("Geometry: Point"))
        let info = try CommandRunner.tool("ogrinfo", ["-ro", "-al", path], package: "gdal-bin")
        #expect(info.status == 0, "\(info.stderr)")
        let features = OGRInfoReader.features(info.text)
        #expect(features.count == expected.count)
        var seen: Set<String> = []
        for feature in features {
            let id = try #require(feature.fields["id"])
            let properties = try #require(expected[id], "unknown id \(id)")
            seen.insert(id)
            #expect(feature.longitude == ExportText.roundedCoordinate(properties.coordinates.longitude))
            #expect(feature.latitude == ExportText.roundedCoordinate(properties.coordinates.latitude))
            var fields = feature.fields
            fields["id"] = nil
            #expect(fields == Dictionary(uniqueKeysWithValues: properties.fields.map { ($0.name, Self.text($0.value)) }), "\(id)")
        }
        #expect(seen.count == expected.count)
    }

    @Test("ogrinfo (LIBKML) reads every KML placemark of the embedded data back, in a layer per type")
    func kmlThroughOGR() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportFixtures.embeddedStore(in: directory)
        let expected = Dictionary(uniqueKeysWithValues: try Self.expectedProperties(store).values.map {
            ("\($0.string("name")!)|\($0.string("town")!)", $0)
        })
        let path = try Self.export("kml", db: store.path, in: directory)
        let summary = try CommandRunner.tool("ogrinfo", ["-ro", "-al", "-so", path], package: "gdal-bin")
        let clubs = expected.values.filter { $0.type == .club }.count
        #expect(summary.text.contains("Layer name: Clubs") && summary.text.contains("Feature Count: \(clubs)"))
        #expect(summary.text.contains("Layer name: Museums") && summary.text.contains("Feature Count: \(expected.count - clubs)"))
        let info = try CommandRunner.tool("ogrinfo", ["-ro", "-al", path], package: "gdal-bin")
        #expect(info.status == 0, "\(info.stderr)")
        let features = OGRInfoReader.features(info.text)
        #expect(features.count == expected.count)
        for feature in features {
            let key = "\(feature.fields["Name"] ?? "?")|\(feature.fields["town"] ?? "?")"
            let properties = try #require(expected[key], "unknown placemark \(key)")
            #expect(feature.layer == (properties.type == .club ? "Clubs" : "Museums"))
            #expect(feature.fields["Style"] == "@\(properties.type.rawValue)")
            #expect(feature.longitude == ExportText.roundedCoordinate(properties.coordinates.longitude))
            #expect(feature.latitude == ExportText.roundedCoordinate(properties.coordinates.latitude))
            #expect(feature.fields["description"] == KMLBalloonReference.html(properties))
            for (name, value) in properties.fields where name != "name" {
                #expect(feature.fields[name] == Self.text(value), "\(key) \(name)")
            }
        }
    }

    @Test("The KML of the embedded data validates against the OGC KML 2.2 schema; tuples are lon,lat")
    func kmlValidates() throws {
        let directory = try TestPaths.temporaryDirectory()
        let store = try ExportFixtures.embeddedStore(in: directory)
        for arguments in [[], ["--pretty"], ["--type", "museum"]] {
            let path = try Self.export("kml", arguments, db: store.path, in: directory)
            try Self.expectValidKML(path)
        }
    }

    static func expectValidKML(_ path: String) throws {
        let result = try CommandRunner.tool("xmllint", ["--noout", "--nonet", "--schema", schema, path], package: "libxml2-utils")
        #expect(result.status == 0 && result.stderr.contains("validates"), "\(result.stderr)")
        // The schema types coordinates as a plain string: check the tuples ourselves.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let tuples = text.matches(of: /<coordinates>([^<]*)<\/coordinates>/).map { String($0.1) }
        #expect(!tuples.isEmpty)
        let tuple = /(-?(?:0|[1-9][0-9]{0,2})(?:\.[0-9]{1,7})?),(-?(?:0|[1-9][0-9]?)(?:\.[0-9]{1,7})?)/
        for value in tuples {
            let match = try #require(value.wholeMatch(of: tuple), "bad tuple \(value)")
            let (longitude, latitude) = (Double(match.1)!, Double(match.2)!)
            #expect((-180...180).contains(longitude) && (-90...90).contains(latitude) && !value.hasPrefix("-0,") && !value.contains(",-0"), "\(value)")
        }
    }

    @Test("Hostile strings round-trip exactly through GDAL (ogr2ogr to GeoJSON) and the KML validates")
    func hostileThroughGDAL() throws {
        let directory = try TestPaths.temporaryDirectory()
        let organization = ExportFixtures.hostileOrganization
        let store = try ExportFixtures.store([organization, ExportFixtures.plainOrganization(1, latitude: 0, longitude: -0.0)],
                                             in: directory)
        for format in ["geojson", "kml"] {
            let path = try Self.export(format, ["--pretty"], db: store.path, in: directory)
            if format == "kml" { try Self.expectValidKML(path) }
            // GeoJSON holds one layer: take the KML's club folder.
            let converted = try CommandRunner.tool("ogr2ogr", ["-f", "GeoJSON", "/vsistdout/", path] + (format == "kml" ? ["Clubs"] : []),
                                                   package: "gdal-bin")
            #expect(converted.status == 0, "\(converted.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: converted.stdout) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            let feature = try #require(features.first { (($0["properties"] as? [String: Any])?["town"] as? String) == organization.town })
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties[format == "kml" ? "Name" : "name"] as? String == organization.fullName, "\(format)")
            #expect(properties["nickName"] as? String == organization.nickName, "\(format)")
            #expect(properties["remark"] as? String == ExportFixtures.hostileRemark, "\(format)")
            #expect(properties["website"] as? String == organization.website, "\(format)")
            #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [151.2092955, -33.8688197])
        }
    }

    @Test("--near, --bbox, --type and --search export exactly what the matching query lists")
    func filtersMatchQueries() throws {
        let directory = try TestPaths.temporaryDirectory()
        let db = try ExportFixtures.embeddedStore(in: directory).path
        let cases: [(query: [String], export: [String])] = [
            (["near", "51.4", "5.4", "--km", "20"], ["--near", "51.4", "5.4", "--km", "20"]),
            (["near", "51.4", "5.4", "--km", "20", "--type", "club"], ["--near", "51.4", "5.4", "--km", "20", "--type", "club"]),
            (["near", "-33.87", "151.21", "--km", "100"], ["--near", "-33.87", "151.21", "--km", "100"]),
            (["bbox", "51.3", "5.3", "51.5", "5.6"], ["--bbox", "51.3", "5.3", "51.5", "5.6"]),
            (["bbox", "-90", "-180", "90", "180", "--type", "museum"], ["--bbox", "-90", "-180", "90", "180", "--type", "museum"]),
            (["bbox", "30", "-130", "50", "-70"], ["--bbox", "30", "-130", "50", "-70"]),
            (["search", "foto", "--type", "club"], ["--search", "foto", "--type", "club"]),
        ]
        for (query, export) in cases {
            let listed = try CommandRunner.hubgeo(query + ["--db", db, "--format", "json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let expected = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(!expected.isEmpty, "\(query)")
            for format in ["geojson", "kml"] {
                let exported = try CommandRunner.hubgeo(["export", format, "--db", db] + export)
                #expect(exported.status == 0, "\(exported.stderr)")
                let ids: [String] = if format == "geojson" {
                    try #require(try JSONSerialization.jsonObject(with: exported.stdout) as? [String: Any])["features"]
                        .flatMap { $0 as? [[String: Any]] }!.compactMap { $0["id"] as? String }
                } else {
                    try KMLReader.read(exported.stdout).placemarks.compactMap { $0.id.map { String($0.dropFirst(4)) } }
                }
                #expect(ids.sorted() == expected.sorted(), "\(format) \(export)")
            }
        }
    }

    @Test("--format geojson on near, bbox, search and show gives the export's shape")
    func queryFormatGeoJSON() throws {
        let directory = try TestPaths.temporaryDirectory()
        let db = try ExportFixtures.embeddedStore(in: directory).path
        let exported = try CommandRunner.hubgeo(["export", "geojson", "--db", db])
        let all = try #require(try JSONSerialization.jsonObject(with: exported.stdout) as? [String: Any])
        let byID = Dictionary(uniqueKeysWithValues: (all["features"] as! [[String: Any]]).map { ($0["id"] as! String, $0) })
        #expect(byID.count == 131)
        for query in [["near", "51.44", "5.48", "--km", "10"], ["bbox", "51", "4", "52", "6", "--type", "club"], ["search", "museum"],
                      ["show", "fgWaalre"]] {
            let result = try CommandRunner.hubgeo(query + ["--db", db, "--format", "geojson"])
            #expect(result.status == 0, "\(result.stderr)")
            let collection = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            #expect(collection["type"] as? String == "FeatureCollection" && collection["bbox"] is [Double])
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(!features.isEmpty)
            for feature in features {
                let id = try #require(feature["id"] as? String)
                #expect(NSDictionary(dictionary: feature).isEqual(to: byID[id]!), "\(query) \(id)")
            }
        }
    }

    @Test("Standard output by default, -o - too; -o writes the file; bad arguments exit 64, I/O errors 1")
    func commandLine() throws {
        let directory = try TestPaths.temporaryDirectory()
        let db = try ExportFixtures.embeddedStore(in: directory).path
        let stdout = try CommandRunner.hubgeo(["export", "geojson", "--db", db])
        let dash = try CommandRunner.hubgeo(["export", "geojson", "--db", db, "-o", "-"])
        #expect(stdout.status == 0 && !stdout.stdout.isEmpty && stdout.stdout == dash.stdout)
        let file = try CommandRunner.hubgeo(["export", "geojson", "--db", db, "--output", directory.path("x.geojson")])
        #expect(file.status == 0 && file.stdout.isEmpty && file.stderr.contains("Wrote 131 organizations"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("x.geojson")) == stdout.stdout)
        let languages = try CommandRunner.hubgeo(["export", "kml", "--db", db, "--lang", "NL", "--type", "club"])
        #expect(languages.status == 0 && languages.text.contains("<Data name=\"remarkLanguage\"><value>NL</value></Data>"))
        for bad in [["--near", "51"], ["--km", "3"], ["--near", "51", "5"], ["--near", "51", "5", "--km", "-1"],
                    ["--bbox", "1", "2", "3"], ["--bbox", "60", "0", "50", "1"], ["--near", "1", "2", "--km", "1", "--bbox", "1", "2", "3", "4"],
                    ["--lang", "n1"], ["--type", "shop"], ["--near", "91", "0", "--km", "1"]] {
            let result = try CommandRunner.hubgeo(["export", "geojson", "--db", db] + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
        }
        let missing = directory.path("no/such/dir/x.kml")
        let failed = try CommandRunner.hubgeo(["export", "kml", "--db", db, "-o", missing])
        #expect(failed.status == 1 && !FileManager.default.fileExists(atPath: missing))
        #expect(try CommandRunner.hubgeo(["export", "xml", "--db", db]).status == 64)
    }
}
