import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads back the placemarks of a KML document with Foundation's XML parser.
final class KMLReader: NSObject, XMLParserDelegate {
    struct Placemark {
        var id: String?
        var name: String?
        var description: String?
        var styleUrl: String?
        var data: [String: String] = [:]
        var dataOrder: [String] = []
        var coordinates: String?
        var folder: String?
    }

    private(set) var placemarks: [Placemark] = []
    private(set) var styleIDs: [String] = []
    private(set) var folders: [String] = []
    private var path: [String] = []
    private var text = ""
    private var current: Placemark?
    private var dataName: String?
    private var folderName: String?

    static func read(_ data: Data) throws -> KMLReader {
        let reader = KMLReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse() else {
            throw CommandRunner.Failure(description: "KML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return reader
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        path.append(element)
        text = ""
        switch element {
        case "Placemark": current = Placemark(id: attributes["id"], folder: folderName)
        case "Data": dataName = attributes["name"]
        case "Style": if let id = attributes["id"] { styleIDs.append(id) }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        let parent = path.last
        switch (element, parent) {
        case ("name", "Placemark"): current?.name = text
        case ("name", "Folder"):
            folderName = text
            folders.append(text)
        case ("description", "Placemark"): current?.description = text
        case ("styleUrl", "Placemark"): current?.styleUrl = text
        case ("value", "Data"):
            if let dataName {
                current?.data[dataName] = text
                current?.dataOrder.append(dataName)
            }
        case ("coordinates", "Point"): current?.coordinates = text
        case ("Placemark", _):
            if let current { placemarks.append(current) }
            current = nil
        default: break
        }
        text = ""
    }
}
