/// Writes organizations as a KML 2.2 document (OGC 07-147r2), one placemark at a time.
///
/// The `Document` holds a `Style` per organization type (clubs: blue circle paddle, museums:
/// red square paddle) and a `Folder` per type, opened when the first organization of that type
/// arrives: give the organizations grouped by type (as `hubgeo export` does) to get one folder
/// each. A `Placemark` has the full name as `name` (nicknames are often identifiers such as
/// "fgWaalre"), an HTML `description` (town, country, website, remark), a `styleUrl`,
/// `ExtendedData` with the ``ExportProperties`` and a `Point` written as `lon,lat`.
/// Elements come in the order the OGC schema requires; all text is escaped (no CDATA).
public final class KMLWriter: OrganizationWriter {
    public static let namespace = "http://www.opengis.net/kml/2.2"

    /// The style id and icon of each organization type.
    public static func style(of type: OrganizationType) -> (id: String, icon: String, folderName: String) {
        switch type {
        case .club: ("club", "https://maps.google.com/mapfiles/kml/paddle/blu-circle.png", "Clubs")
        case .museum: ("museum", "https://maps.google.com/mapfiles/kml/paddle/red-square.png", "Museums")
        }
    }

    private let sink: ExportSink
    private let language: String?
    private let pretty: Bool
    private let documentName: String
    private var openFolder: OrganizationType?
    private var count = 0

    /// `language` picks the remark (see ``ExportProperties``).
    public init(sink: ExportSink, language: String? = nil, pretty: Bool = false, documentName: String = "Photo Club Hub") {
        self.sink = sink
        self.language = language
        self.pretty = pretty
        self.documentName = documentName
    }

    public var placemarkCount: Int { count }

    public func begin() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"\(Self.namespace)\">\n<Document>"
        text += line(1) + "<name>\(ExportText.xmlEscaped(documentName))</name>"
        for type in OrganizationType.allCases {
            let style = Self.style(of: type)
            text += line(1) + "<Style id=\"\(style.id)\">"
            text += line(2) + "<IconStyle>" + line(3) + "<scale>1.1</scale>"
            text += line(3) + "<Icon>" + line(4) + "<href>\(ExportText.xmlEscaped(style.icon))</href>" + line(3) + "</Icon>"
            text += line(3) + "<hotSpot x=\"32\" y=\"1\" xunits=\"pixels\" yunits=\"pixels\"/>"
            text += line(2) + "</IconStyle>" + line(1) + "</Style>"
        }
        try sink.write(text)
    }

    public func write(_ match: PlaceMatch) throws {
        let properties = ExportProperties(match, language: language)
        var text = ""
        if openFolder != properties.type {
            if openFolder != nil { text += line(1) + "</Folder>" }
            text += line(1) + "<Folder>" + line(2) + "<name>\(Self.style(of: properties.type).folderName)</name>"
            openFolder = properties.type
        }
        text += placemark(properties)
        try sink.write(text)
        count += 1
    }

    public func finish() throws {
        try sink.write((openFolder != nil ? line(1) + "</Folder>" : "") + "\n</Document>\n</kml>\n")
    }

    func placemark(_ properties: ExportProperties) -> String {
        var text = line(2) + "<Placemark id=\"org-\(ExportText.xmlEscaped(properties.id))\">"
        text += line(3) + "<name>\(ExportText.xmlEscaped(properties.string("name") ?? ""))</name>"
        text += line(3) + "<description>\(ExportText.xmlEscaped(Self.descriptionHTML(properties)))</description>"
        text += line(3) + "<styleUrl>#\(Self.style(of: properties.type).id)</styleUrl>"
        text += line(3) + "<ExtendedData>"
        for field in properties.fields {
            let value = switch field.value {
            case .string(let string): string
            case .integer(let number): String(number)
            }
            text += line(4) + "<Data name=\"\(field.name)\"><value>\(ExportText.xmlEscaped(value))</value></Data>"
        }
        text += line(3) + "</ExtendedData>"
        text += line(3) + "<Point><coordinates>" + ExportText.coordinate(properties.coordinates.longitude) + ","
            + ExportText.coordinate(properties.coordinates.latitude) + "</coordinates></Point>"
        text += line(2) + "</Placemark>"
        return text
    }

    /// The balloon text: HTML with every value HTML-escaped (the XML escaping comes on top).
    static func descriptionHTML(_ properties: ExportProperties) -> String {
        var lines: [String] = []
        let town = properties.string("localizedTown") ?? properties.string("town")
        if let town { lines.append("Town: " + html(town)) }
        if let country = properties.string("localizedCountry") { lines.append("Country: " + html(country)) }
        if let website = properties.string("website") {
            let lowered = website.lowercased()
            if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
                lines.append("Website: <a href=\"\(html(website))\">\(html(website))</a>")
            } else {
                lines.append("Website: " + html(website))
            }
        }
        var text = lines.joined(separator: "<br/>")
        if let remark = properties.string("remark") {
            text += (text.isEmpty ? "" : "<br/>") + "<p>" + html(remark).replacingOccurrences(of: "\n", with: "<br/>") + "</p>"
        }
        return text
    }

    static func html(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    private func line(_ level: Int) -> String {
        pretty ? "\n" + String(repeating: "  ", count: level) : "\n"
    }
}
