import Foundation

/// Writes small Level 1 and Level 2 documents for tests.
package enum Level1Builder {
    package struct Entry {
        package var town: String
        package var fullName: String
        package var nickName: String
        package var latitude: Double
        package var longitude: Double
        package var optional: String = "{}"

        package init(town: String, fullName: String, nickName: String, latitude: Double, longitude: Double, optional: String = "{}") {
            self.town = town
            self.fullName = fullName
            self.nickName = nickName
            self.latitude = latitude
            self.longitude = longitude
            self.optional = optional
        }
    }

    package static func record(_ entry: Entry) -> String {
        """
        {"idPlus": {"town": \(quoted(entry.town)), "fullName": \(quoted(entry.fullName)), "nickName": \(quoted(entry.nickName))},
         "coordinates": {"latitude": \(entry.latitude), "longitude": \(entry.longitude)},
         "optional": \(entry.optional)}
        """
    }

    package static func level1(clubs: [Entry] = [], museums: [Entry] = [], includes: [String] = []) -> String {
        """
        {"level1Header": {"level1URLIncludes": [\(includes.map(quoted).joined(separator: ", "))]},
         "clubs": [\(clubs.map(record).joined(separator: ",\n"))],
         "museums": [\(museums.map(record).joined(separator: ",\n"))]}
        """
    }

    package static func level2(club: Entry, members: String = "[]") -> String {
        "{\"club\": \(record(club)), \"members\": \(members)}"
    }

    package static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
