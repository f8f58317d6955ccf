import Foundation
import HubGeoDatabase
@testable import HubGeoGeocoding
import HubGeoTestSupport
import Testing

/// The jsonv2 parser, the town-key rule and Nominatim's name choice, on the real samples.
@Suite("Nominatim parser")
struct NominatimParserTests {
    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: NominatimStandIn.samples.appendingPathComponent(name + ".json"))
    }

    static func parse(_ name: String) throws -> ReverseGeocodeResult {
        try NominatimResponseParser.parse(sample(name))
    }

    /// Expected (town key, town, country, country code) of every reverse sample that parses;
    /// nil town key = no locality in the address.
    static let expectations: [String: (String?, String?, String?, String?)] = [
        "rev_z10_amsterdam_de": ("city", "Amsterdam", "Niederlande", "nl"),
        "rev_z10_amsterdam_en": ("city", "Amsterdam", "Netherlands", "nl"),
        "rev_z10_amsterdam_fr": ("city", "Amsterdam", "Pays-Bas", "nl"),
        "rev_z10_amsterdam_ja": ("city", "アムステルダム", "オランダ", "nl"),
        "rev_z10_amsterdam_nl": ("city", "Amsterdam", "Nederland", "nl"),
        "rev_z10_amsterdam_nl_namedetails": ("city", "Amsterdam", "Nederland", "nl"),
        "rev_z10_amsterdam_nolang": ("city", "Amsterdam", "Nederland", "nl"),
        "rev_z10_berlicum_de": ("municipality", "Sint-Michielsgestel", "Niederlande", "nl"),
        "rev_z10_berlicum_en": ("municipality", "Sint-Michielsgestel", "Netherlands", "nl"),
        "rev_z10_berlicum_fr": ("municipality", "Sint-Michielsgestel", "Pays-Bas", "nl"),
        "rev_z10_berlicum_ja": ("municipality", "Sint-Michielsgestel", "オランダ", "nl"),
        "rev_z10_berlicum_nl": ("municipality", "Sint-Michielsgestel", "Nederland", "nl"),
        "rev_z10_berlicum_nl_namedetails": ("municipality", "Sint-Michielsgestel", "Nederland", "nl"),
        "rev_z10_berlicum_nolang": ("municipality", "Sint-Michielsgestel", "Nederland", "nl"),
        "rev_z10_brussel_de": ("city", "Brüssel", "Belgien", "be"),
        "rev_z10_brussel_en": ("city", "Brussels", "Belgium", "be"),
        "rev_z10_brussel_fr": ("city", "Bruxelles", "Belgique", "be"),
        "rev_z10_brussel_ja": ("city", "ブリュッセル", "ベルギー", "be"),
        "rev_z10_brussel_nl": ("city", "Brussel", "België", "be"),
        "rev_z10_brussel_nl_namedetails": ("city", "Brussel", "België", "be"),
        "rev_z10_brussel_nolang": ("city", "Bruxelles - Brussel", "België / Belgique / Belgien", "be"),
        "rev_z10_denhaag_de": ("city", "Den Haag", "Niederlande", "nl"),
        "rev_z10_denhaag_en": ("city", "The Hague", "Netherlands", "nl"),
        "rev_z10_denhaag_fr": ("city", "La Haye", "Pays-Bas", "nl"),
        "rev_z10_denhaag_ja": ("city", "デン・ハーグ", "オランダ", "nl"),
        "rev_z10_denhaag_nl": ("city", "Den Haag", "Nederland", "nl"),
        "rev_z10_denhaag_nl_namedetails": ("city", "Den Haag", "Nederland", "nl"),
        "rev_z10_denhaag_nolang": ("city", "Den Haag", "Nederland", "nl"),
        "rev_z10_eindhoven_de": ("city", "Eindhoven", "Niederlande", "nl"),
        "rev_z10_eindhoven_en": ("city", "Eindhoven", "Netherlands", "nl"),
        "rev_z10_eindhoven_fr": ("city", "Eindhoven", "Pays-Bas", "nl"),
        "rev_z10_eindhoven_ja": ("city", "アイントホーフェン", "オランダ", "nl"),
        "rev_z10_eindhoven_nl": ("city", "Eindhoven", "Nederland", "nl"),
        "rev_z10_eindhoven_nl_namedetails": ("city", "Eindhoven", "Nederland", "nl"),
        "rev_z10_eindhoven_nolang": ("city", "Eindhoven", "Nederland", "nl"),
        "rev_z10_eindhoven_offset_en": ("city", "Eindhoven", "Netherlands", "nl"),
        "rev_z10_koeln_json_v1": ("city", "Keulen", "Duitsland", "de"),
        "rev_z10_koeln_langlist": ("city", "Cologne", "Allemagne", "de"),
        "rev_z10_waalre_de": ("municipality", "Waalre", "Niederlande", "nl"),
        "rev_z10_waalre_en": ("municipality", "Waalre", "Netherlands", "nl"),
        "rev_z10_waalre_fr": ("municipality", "Waalre", "Pays-Bas", "nl"),
        "rev_z10_waalre_ja": ("municipality", "Waalre", "オランダ", "nl"),
        "rev_z10_waalre_nl": ("municipality", "Waalre", "Nederland", "nl"),
        "rev_z10_waalre_nl_namedetails": ("municipality", "Waalre", "Nederland", "nl"),
        "rev_z10_waalre_nolang": ("municipality", "Waalre", "Nederland", "nl"),
        "rev_z12_berlicum_nl": ("municipality", "Sint-Michielsgestel", "Nederland", "nl"),
        "rev_z12_waalre_nl": ("municipality", "Waalre", "Nederland", "nl"),
        "rev_z13_berlicum_nl": ("village", "Berlicum", "Nederland", "nl"),
        "rev_z13_waalre_nl": ("village", "Waalre", "Nederland", "nl"),
        "rev_z14_berlicum_nl": ("village", "Berlicum", "Nederland", "nl"),
        "rev_z14_eindhoven_offset_en": ("city", "Eindhoven", "Netherlands", "nl"),
        "rev_z14_waalre_nl": ("village", "Waalre", "Nederland", "nl"),
        "rev_z16_berlicum_nl": ("village", "Berlicum", "Nederland", "nl"),
        "rev_z16_waalre_nl": ("village", "Waalre", "Nederland", "nl"),
        "rev_z18_berlicum_nl": ("village", "Berlicum", "Nederland", "nl"),
        "rev_z18_eindhoven_nl": ("city", "Eindhoven", "Nederland", "nl"),
        "rev_z18_eindhoven_offset_en": ("city", "Eindhoven", "Netherlands", "nl"),
        "rev_z18_waalre_nl": ("village", "Waalre", "Nederland", "nl"),
        "rev_z3_berlicum_nl": (nil, nil, "Nederland", "nl"),
        "rev_z3_eindhoven_de": (nil, nil, "Niederlande", "nl"),
        "rev_z3_eindhoven_en": (nil, nil, "Netherlands", "nl"),
        "rev_z3_eindhoven_fr": (nil, nil, "Pays-Bas", "nl"),
        "rev_z3_eindhoven_ja": (nil, nil, "オランダ", "nl"),
        "rev_z3_eindhoven_nl": (nil, nil, "Nederland", "nl"),
        "rev_z3_waalre_nl": (nil, nil, "Nederland", "nl"),
        "rev_z5_berlicum_nl": (nil, nil, "Nederland", "nl"),
        "rev_z5_waalre_nl": (nil, nil, "Nederland", "nl"),
        "rev_z8_berlicum_nl": (nil, nil, "Nederland", "nl"),
        "rev_z8_waalre_nl": (nil, nil, "Nederland", "nl"),
        "rev_nowhere_land_z10": (nil, nil, "Austria", "at"),
    ]

    @Test("Town key, town and country of every found sample", arguments: expectations.keys.sorted())
    func townKey(sample: String) throws {
        let result = try Self.parse(sample)
        let (key, town, country, code) = try #require(Self.expectations[sample])
        #expect(result.status == .found)
        #expect(result.townKey == key)
        #expect(result.town == town)
        #expect(result.country == country)
        #expect(result.countryCode == code)
    }

    @Test("Every reverse sample is covered: found, no-result, or not jsonv2")
    func everySampleCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: NominatimStandIn.samples.path)
            .filter { $0.hasPrefix("rev_") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        let noResult: Set = ["rev_sea_json", "rev_sea_jsonv2", "rev_sea_z3"]
        let notJSONv2: Set = ["rev_sea_xml", "rev_z10_koeln_geojson"]
        for name in names where Self.expectations[name] == nil {
            if noResult.contains(name) {
                #expect(try Self.parse(name) == .noResult, "\(name)")
            } else {
                #expect(notJSONv2.contains(name), "\(name) has no expectation")
                #expect(throws: NominatimResponseParser.Failure.self) { try Self.parse(name) }
            }
        }
    }

    @Test("Villages survive from zoom 13 on; zoom 10-12 gives the municipality")
    func zoomKeepsVillages() throws {
        for zoom in [10, 12] { #expect(try Self.parse("rev_z\(zoom)_berlicum_nl").town == "Sint-Michielsgestel") }
        for zoom in [13, 14, 16, 18] { #expect(try Self.parse("rev_z\(zoom)_berlicum_nl").town == "Berlicum") }
        #expect(NominatimConfiguration.defaultZoom >= 13)
    }

    @Test("\"Unable to geocode\" (HTTP 200) is a no-result answer; lat 91 too")
    func unableToGeocode() throws {
        #expect(try Self.parse("rev_sea_jsonv2") == .noResult)
        #expect(try Self.parse("err_lat_91") == .noResult)
    }

    @Test("Numbers sent as strings are accepted, strings as numbers too")
    func numbersAsStrings() throws {
        let body = #"{"place_id":"123","osm_type":"node","osm_id":"45","lat":51.5,"lon":"5.25","place_rank":"16","addresstype":"town","name":"X","address":{"town":"X","country":"Y","country_code":"YY","postcode":5611}}"#
        let result = try NominatimResponseParser.parse(Data(body.utf8))
        #expect(result.placeID == 123)
        #expect(result.osmID == 45)
        #expect(result.latitude == 51.5)
        #expect(result.longitude == 5.25)
        #expect(result.townKey == "town")
        #expect(result.countryCode == "yy")
    }

    @Test("Town keys in order: city, town, village, municipality, then hamlet/suburb")
    func townKeyOrder() throws {
        func town(_ address: String) throws -> String? {
            try NominatimResponseParser.parse(Data(#"{"address":{\#(address)}}"#.utf8)).townKey
        }
        #expect(try town(#""suburb":"S","hamlet":"H","municipality":"M","village":"V","town":"T","city":"C""#) == "city")
        #expect(try town(#""suburb":"S","hamlet":"H","municipality":"M","village":"V","town":"T""#) == "town")
        #expect(try town(#""suburb":"S","hamlet":"H","municipality":"M","village":"V""#) == "village")
        #expect(try town(#""suburb":"S","hamlet":"H","municipality":"M""#) == "municipality")
        #expect(try town(#""suburb":"S","hamlet":"H""#) == "hamlet")
        #expect(try town(#""suburb":"S","road":"R""#) == "suburb")
        #expect(try town(#""road":"R","country":"C""#) == nil)
    }

    @Test("Bodies that are not answers are refused, not crashed on")
    func badBodies() throws {
        for body in ["", "<html>502</html>", "{\"place_id\":1,", "[]", #"{"error":{"code":400,"message":"bad"}}"#, #"{"place_id":1}"#] {
            #expect(throws: NominatimResponseParser.Failure.self) { try NominatimResponseParser.parse(Data(body.utf8)) }
        }
    }

    @Test("Error messages of 400 and 404 bodies")
    func errorMessages() throws {
        #expect(NominatimResponseParser.errorMessage(in: try Self.sample("err_lat_abc")) == "Parameter 'lat' must be a number.")
        #expect(NominatimResponseParser.errorMessage(in: try Self.sample("err_bad_format"))?.hasPrefix("ERROR 400: Parameter 'format'") == true)
        #expect(NominatimResponseParser.errorMessage(in: try Self.sample("err_unknown_path")) == "404 Not Found")
    }

    @Test("Nominatim's name rule on namedetails reproduces every language's town",
          arguments: ["amsterdam", "brussel", "denhaag", "eindhoven", "berlicum", "waalre"])
    func namedetailsMatchPerLanguage(place: String) throws {
        let names = try #require(try Self.parse("rev_z10_\(place)_nl_namedetails").nameDetails)
        for language in ["de", "en", "fr", "ja", "nl"] {
            let asked = try Self.parse("rev_z10_\(place)_\(language)")
            #expect(NominatimLocales.displayName(names, languages: [language]) == asked.town, "\(place) \(language)")
        }
        // No language: the raw name.
        #expect(NominatimLocales.displayName(names, languages: []) == (try Self.parse("rev_z10_\(place)_nolang")).town)
    }

    @Test("Name rule order: name:xx, name, then official_name:xx; a single name always wins")
    func nameRuleOrder() {
        typealias Tag = ReverseGeocodeResult.NameTag
        #expect(NominatimLocales.displayName([Tag("name", "A"), Tag("official_name:en", "B")], languages: ["en"]) == "A")
        #expect(NominatimLocales.displayName([Tag("official_name:en", "B"), Tag("ref", "R")], languages: ["en"]) == "B")
        #expect(NominatimLocales.displayName([Tag("name:fr", "F")], languages: ["en"]) == "F")
        #expect(NominatimLocales.displayName([Tag("_place_name:en", "P"), Tag("name", "N")], languages: ["en"]) == "P")
    }
}
