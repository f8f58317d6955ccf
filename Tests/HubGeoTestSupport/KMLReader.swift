import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads back the placemarks of a KML document with Foundation's XML parser.
package final class KMLReader: NSObject, XMLParserDelegate {
    package struct Placemark {
        package var id: String?
        package var name: String?
        package var description: String?
        package var styleUrl: String?
        package var data: [String: String] = [:]
        package var dataOrder: [String] = []
        package var coordinates: String?
        package var folder: String?
    }

    package private(set) var placemarks: [Placemark] = []
    package private(set) var styleIDs: [String] = []
    package private(set) var folders: [String] = []
    private var path: [String] = []
    private var text = ""
    private var current: Placemark?
    private var dataName: String?
    private var folderName: String?

    package static func read(_ data: Data) throws -> KMLReader {
        let reader = KMLReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse() else {
            throw CommandRunner.Failure(description: "KML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return reader
    }

    package func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
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

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    package func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
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
