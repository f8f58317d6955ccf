import Foundation
import HubGeoGeocoding
import HubGeoModel
@testable import HubGeoValidation
import Testing

/// The Level 1 entry `hubgeo locate --format level1` writes: fields, names, links, and the
/// Level 1 checks it must pass before it is printed.
@Suite("Level 1 entry draft")
struct Level1EntryDraftTests {
    static let museum = PlaceCandidate(
        name: "Museum Klok & Peel", kind: "museum", category: "tourism", type: "museum", town: "Asten", townKey: "village",
        country: "Nederland", countryCode: "nl", coordinates: GeoPoint(latitude: 51.4010049, longitude: 5.74400049),
        osmType: "node", osmID: 69, website: "https://www.klokenpeel.nl/", wikipedia: "nl:Museum Klok & Peel")

    @Test("A museum: town from the address, its name, a made nickname, coordinates to 5 decimals, website and the article's URL")
    func museumEntry() throws {
        let draft = try Level1EntryDraft(candidate: Self.museum, type: .museum)
        #expect(draft.town == "Asten" && draft.fullName == "Museum Klok & Peel" && draft.nickName == "Museum Klok & Peel")
        #expect(draft.coordinates == GeoPoint(latitude: 51.401, longitude: 5.744))
        #expect(draft.wikipedia == "https://nl.wikipedia.org/wiki/Museum_Klok_&_Peel")
        let json = try draft.checkedJSON()
        #expect(json == """
            {
                "idPlus": {
                    "town": "Asten",
                    "fullName": "Museum Klok & Peel",
                    "nickName": "Museum Klok & Peel"
                },
                "coordinates": {
                    "latitude": 51.401,
                    "longitude": 5.744
                },
                "optional": {
                    "website": "https://www.klokenpeel.nl/",
                    "wikipedia": "https://nl.wikipedia.org/wiki/Museum_Klok_&_Peel"
                }
            }
            """)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    }

    @Test("Nicknames as Photo Club Hub's files make them")
    func nickNames() {
        #expect(Level1EntryDraft.nickName(for: "Fotokring Beeldhoek") == "fkBeeldhoek")
        #expect(Level1EntryDraft.nickName(for: "Fotogroep Meppel e.o.") == "fgMeppel")
        #expect(Level1EntryDraft.nickName(for: "Fotoclub Borger-Odoorn") == "fcBorgerOdoorn")
        #expect(Level1EntryDraft.nickName(for: "FotoWerkgroep IVN-Best") == "fwIVNBest")
        #expect(Level1EntryDraft.nickName(for: "Fotoclub") == "Fotoclub")
        #expect(Level1EntryDraft.nickName(for: "Huis Marseille Museum for Photography") == "Huis Marseille Museum")
        #expect(Level1EntryDraft.nickName(for: "Cameramuseum Zierikzee") == "Cameramuseum Zierikzee")
    }

    @Test("Links: only http(s) websites; wikipedia tags as article URLs, a URL kept, anything else left out")
    func links() {
        #expect(Level1EntryDraft.webURL("ftp://example.org") == nil && Level1EntryDraft.webURL("www.example.org") == nil)
        #expect(Level1EntryDraft.wikipediaURL("en:Museum of Photography, Berlin") == "https://en.wikipedia.org/wiki/Museum_of_Photography,_Berlin")
        #expect(Level1EntryDraft.wikipediaURL("de:Leica-Welt#Museum") == "https://de.wikipedia.org/wiki/Leica-Welt#Museum")
        #expect(Level1EntryDraft.wikipediaURL("https://nl.wikipedia.org/wiki/Huis_Marseille") == "https://nl.wikipedia.org/wiki/Huis_Marseille")
        #expect(Level1EntryDraft.wikipediaURL("Fotomuseum") == nil && Level1EntryDraft.wikipediaURL("::x") == nil)
    }

    @Test("A place without a town, and names the Level 1 checks refuse, give no entry")
    func refused() throws {
        var country = Self.museum
        country.town = nil
        #expect(throws: Level1EntryDraft.Problem.self) { try Level1EntryDraft(candidate: country, type: .club) }
        var hostile = Self.museum
        hostile.name = "::error::Fake\u{1B}[31m ##[add-mask]x"
        let draft = try Level1EntryDraft(candidate: hostile, type: .club)
        let problem = #expect(throws: Level1EntryDraft.Problem.self) { try draft.checkedJSON() }
        #expect(problem?.diagnostics.contains { $0.jsonPath == "clubs[0].idPlus.fullName" } == true, "\(String(describing: problem))")
        // The JSON itself escapes the control character: nothing raw even in the refused text.
        #expect(!draft.json().contains("\u{1B}") && draft.json().contains("\\u001B"))
    }
}
