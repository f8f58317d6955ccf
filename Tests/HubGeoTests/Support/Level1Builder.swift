import Foundation

/// Writes small Level 1 and Level 2 documents for tests.
enum Level1Builder {
    struct Entry {
        var town: String
        var fullName: String
        var nickName: String
        var latitude: Double
        var longitude: Double
        var optional: String = "{}"
    }

    static func record(_ entry: Entry) -> String {
        """
        {"idPlus": {"town": \(quoted(entry.town)), "fullName": \(quoted(entry.fullName)), "nickName": \(quoted(entry.nickName))},
         "coordinates": {"latitude": \(entry.latitude), "longitude": \(entry.longitude)},
         "optional": \(entry.optional)}
        """
    }

    static func level1(clubs: [Entry] = [], museums: [Entry] = [], includes: [String] = []) -> String {
        """
        {"level1Header": {"level1URLIncludes": [\(includes.map(quoted).joined(separator: ", "))]},
         "clubs": [\(clubs.map(record).joined(separator: ",\n"))],
         "museums": [\(museums.map(record).joined(separator: ",\n"))]}
        """
    }

    static func level2(club: Entry, members: String = "[]") -> String {
        "{\"club\": \(record(club)), \"members\": \(members)}"
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
