import HubGeoDatabase
import HubGeoModel

/// Writes organizations as a KML 2.2 document (OGC 07-147r2), one placemark at a time.
///
/// The `Document` holds a `Style` per organization type (clubs: blue circle paddle, museums:
/// red square paddle) and a `Folder` per type, opened when the first organization of that type
/// arrives: give the organizations grouped by type (as `hubgeo export` does) to get one folder
/// each. A `Placemark` has the full name as `name` (nicknames are often identifiers such as
/// "fgWaalre"), an HTML `description` (town, country, website, remark), a `styleUrl`,
/// `ExtendedData` with the `ExportProperties` and a `Point` written as `lon,lat`.
/// Elements come in the order the OGC schema requires; all text is escaped (no CDATA).
/// The text is built as UTF-8 bytes in one reusable buffer and handed to the sink in large
/// pieces; ``finish()`` hands over the rest.
public final class KMLWriter: OrganizationWriter {
    package static let namespace = "http://www.opengis.net/kml/2.2"

    /// The style id and icon of each organization type.
    package static func style(of type: OrganizationType) -> (id: String, icon: String, folderName: String) {
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
    private let buffer = UTF8Buffer()
    private var record = ExportRecord()

    /// The language that picks the remark.
    var remarkLanguage: String? { language }

    /// `language` picks the remark (see `ExportProperties`).
    public init(sink: ExportSink, language: String? = nil, pretty: Bool = false, documentName: String = "Photo Club Hub") {
        self.sink = sink
        self.language = language
        self.pretty = pretty
        self.documentName = documentName
    }

    /// The number of placemarks written so far.
    public var placemarkCount: Int { count }

    /// Starts the document: its styles and the folders of clubs and museums.
    public func begin() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"\(Self.namespace)\">\n<Document>"
        text += line(1) + "<name>\(XMLText.escaped(documentName))</name>"
        for type in OrganizationType.allCases {
            let style = Self.style(of: type)
            text += line(1) + "<Style id=\"\(style.id)\">"
            text += line(2) + "<IconStyle>" + line(3) + "<scale>1.1</scale>"
            text += line(3) + "<Icon>" + line(4) + "<href>\(XMLText.escaped(style.icon))</href>" + line(3) + "</Icon>"
            text += line(3) + "<hotSpot x=\"32\" y=\"1\" xunits=\"pixels\" yunits=\"pixels\"/>"
            text += line(2) + "</IconStyle>" + line(1) + "</Style>"
        }
        buffer.append(string: text)
    }

    /// Writes `match` as one placemark.
    public func write(_ match: PlaceMatch) throws {
        record.fill(match, language: language)
        try write(record)
    }

    /// Writes one placemark from its record.
    func write(_ record: ExportRecord) throws {
        if openFolder != record.organizationType {
            if openFolder != nil {
                indent(1)
                buffer.append("</Folder>")
            }
            indent(1)
            buffer.append("<Folder>")
            indent(2)
            buffer.append("<name>")
            buffer.append(string: Self.style(of: record.organizationType).folderName)
            buffer.append("</name>")
            openFolder = record.organizationType
        }
        appendPlacemark(record)
        count += 1
        if buffer.count >= ExportSinks.chunkSize { try flush() }
    }

    /// Ends the document and hands the rest to the sink.
    public func finish() throws {
        if openFolder != nil {
            indent(1)
            buffer.append("</Folder>")
        }
        buffer.append("\n</Document>\n</kml>\n")
        try flush()
    }

    /// Hands what the buffer holds to the sink.
    public func flush() throws {
        guard buffer.count > 0 else { return }
        try buffer.withBytes { try sink.write(bytes: $0) }
        buffer.removeAll()
    }

    private func appendPlacemark(_ record: ExportRecord) {
        indent(2)
        buffer.append("<Placemark id=\"org-")
        record.bytes(.id) { buffer.append(xmlEscaped: $0) }
        buffer.append("\">")
        indent(3)
        buffer.append("<name>")
        record.bytes(.name) { buffer.append(xmlEscaped: $0) }
        buffer.append("</name>")
        indent(3)
        buffer.append("<description>")
        appendDescription(record)
        buffer.append("</description>")
        indent(3)
        buffer.append(record.organizationType == .club ? "<styleUrl>#club</styleUrl>" : "<styleUrl>#museum</styleUrl>")
        indent(3)
        buffer.append("<ExtendedData>")
        record.forEachProperty { _, name, value in
            indent(4)
            buffer.append("<Data name=\"")
            buffer.append(name)
            buffer.append("\"><value>")
            buffer.append(xmlEscaped: value)
            buffer.append("</value></Data>")
        }
        if let number = record.fotobondNumber {
            indent(4)
            buffer.append("<Data name=\"fotobondNumber\"><value>")
            buffer.append(integer: number)
            buffer.append("</value></Data>")
        }
        if let number = record.memberCount {
            indent(4)
            buffer.append("<Data name=\"memberCount\"><value>")
            buffer.append(integer: number)
            buffer.append("</value></Data>")
        }
        indent(3)
        buffer.append("</ExtendedData>")
        indent(3)
        buffer.append("<Point><coordinates>")
        buffer.append(coordinate: record.longitude)
        buffer.append(",")
        buffer.append(coordinate: record.latitude)
        buffer.append("</coordinates></Point>")
        indent(2)
        buffer.append("</Placemark>")
    }

    /// The balloon: HTML (town, country, website as a link, remark as a paragraph with its line
    /// feeds as `<br/>`) inside XML text, each value escaped for both in one pass (``XMLText``),
    /// once (the website's link and text are one escaping, copied).
    private func appendDescription(_ record: ExportRecord) {
        var lines = 0
        func lineBreak() {
            if lines > 0 { buffer.append("&lt;br/&gt;") }
            lines += 1
        }
        let town: ExportRecord.Field? = record.has(.localizedTown) ? .localizedTown : record.has(.town) ? .town : nil
        if let town {
            lineBreak()
            buffer.append("Town: ")
            record.bytes(town) { buffer.append(xmlEscaped: $0, html: true) }
        }
        if record.has(.localizedCountry) {
            lineBreak()
            buffer.append("Country: ")
            record.bytes(.localizedCountry) { buffer.append(xmlEscaped: $0, html: true) }
        }
        if record.has(.website) {
            lineBreak()
            buffer.append("Website: ")
            record.bytes(.website) { website in
                if Self.hasWebScheme(website) {
                    // Escaped once, written twice (the link and its text).
                    buffer.append("&lt;a href=&quot;")
                    let escaped = buffer.count
                    buffer.append(xmlEscaped: website, html: true)
                    let escapedEnd = buffer.count
                    buffer.append("&quot;&gt;")
                    buffer.append(copyOf: escaped..<escapedEnd)
                    buffer.append("&lt;/a&gt;")
                } else {
                    buffer.append(xmlEscaped: website, html: true)
                }
            }
        }
        if record.has(.remark) {
            lineBreak()
            buffer.append("&lt;p&gt;")
            record.bytes(.remark) { buffer.append(xmlEscaped: $0, html: true, breaks: true) }
            buffer.append("&lt;/p&gt;")
        }
    }

    /// True when `text` starts with `http://` or `https://`, ignoring ASCII case.
    static func hasWebScheme(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func starts(with prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard text.count >= count else { return false }
            for index in 0..<count {
                var byte = text[index]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                if byte != prefix.utf8Start[index] { return false }
            }
            return true
        }
        return starts(with: "https://") || starts(with: "http://")
    }

    @inline(__always)
    private func indent(_ level: Int) {
        buffer.append(byte: UInt8(ascii: "\n"))
        if pretty {
            for _ in 0..<level { buffer.append("  ") }
        }
    }

    private func line(_ level: Int) -> String {
        pretty ? "\n" + String(repeating: "  ", count: level) : "\n"
    }
}
