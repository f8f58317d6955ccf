import Foundation
import HubGeoJSON
import HubGeoModel

/// The JSON of organizations in `--format json` output, the one writer of that shape: every
/// field, flat, keys sorted, absent values omitted, the distance in metres (one decimal) when the
/// query had a centre, the language and cached localized place when asked. The bytes are those
/// `PrettyJSON` writes (strings escaped by `JSONString`), built by hand in a reusable byte
/// buffer, so that nothing is held: a query's results
/// stream as an array, one organization at a time, handed to the sink in large pieces; `show`
/// writes one object (`object(_:distanceMeters:localized:)`).
public final class OrganizationJSONWriter {
    private let sink: ExportSink
    private let buffer = UTF8Buffer()
    private var count = 0

    /// A writer to `sink`.
    public init(sink: ExportSink) {
        self.sink = sink
    }

    /// The number of organizations written so far.
    public var organizationCount: Int { count }

    /// Starts the array.
    public func begin() throws {
        buffer.append("[")
    }

    /// Writes one organization of the array. `localized`: the language asked and its cached place
    /// (a place with no town nor country when nothing is cached); nil when no language was asked.
    public func write(_ organization: Organization, distanceMeters: Double?, localized: LocalizedPlace?) throws {
        buffer.append(count > 0 ? ",\n  " : "\n  ")
        appendObject(organization, distanceMeters: distanceMeters, localized: localized, indent: "  ")
        count += 1
        if buffer.count >= ExportSinks.chunkSize { try flush() }
    }

    /// One organization as a JSON object of its own, as `show --format json` prints it.
    package static func object(_ organization: Organization, distanceMeters: Double? = nil, localized: LocalizedPlace?) -> String {
        let sink = StringSink()
        let writer = OrganizationJSONWriter(sink: sink)
        writer.appendObject(organization, distanceMeters: distanceMeters, localized: localized, indent: "")
        try? writer.flush()  // a StringSink does not fail
        return sink.text
    }

    /// The object, its first line at the buffer's current position and the others indented by `indent`.
    private func appendObject(_ organization: Organization, distanceMeters: Double?, localized: LocalizedPlace?, indent: String) {
        let inner = indent + "  ", nested = inner + "  "
        buffer.append("{")
        var fields = 0
        func key(_ name: StaticString) {
            buffer.append(fields > 0 ? ",\n" : "\n")
            buffer.append(string: inner)
            buffer.append("\"")
            buffer.append(name)
            buffer.append("\" : ")
            fields += 1
        }
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            appendString(value)
        }
        if let distanceMeters {
            key("distanceMeters")
            appendDouble((distanceMeters * 10).rounded() / 10)
        }
        if let number = organization.fotobondNumber {
            key("fotobondNumber")
            buffer.append(integer: number)
        }
        string("fullName", organization.fullName)
        string("id", organization.stableID)
        string("language", localized?.language)
        key("latitude")
        appendDouble(organization.coordinates.latitude)
        string("level1Source", organization.level1Source)
        if !organization.overrides.isEmpty {
            key("level2Overrides")
            buffer.append("[")
            for (index, change) in organization.overrides.enumerated() {
                buffer.append(index > 0 ? ",\n" : "\n")
                buffer.append(string: nested)
                buffer.append("{\n")
                buffer.append(string: nested)
                buffer.append("  \"field\" : ")
                appendString(change.field)
                if let level1Value = change.level1Value {
                    buffer.append(",\n")
                    buffer.append(string: nested)
                    buffer.append("  \"level1Value\" : ")
                    appendString(level1Value)
                }
                buffer.append(",\n")
                buffer.append(string: nested)
                buffer.append("  \"level2Value\" : ")
                appendString(change.level2Value)
                buffer.append("\n")
                buffer.append(string: nested)
                buffer.append("}")
            }
            buffer.append("\n")
            buffer.append(string: inner)
            buffer.append("]")
        }
        string("level2Source", organization.level2Source)
        string("level2URL", organization.level2URL)
        string("localizedCountry", localized?.country)
        string("localizedTown", localized?.town)
        string("localizedTownSource", localized?.town == nil ? nil : localized?.townSource?.rawValue)
        key("longitude")
        appendDouble(organization.coordinates.longitude)
        string("maintainerEmail", organization.maintainerEmail)
        if let number = organization.memberCount {
            key("memberCount")
            buffer.append(integer: number)
        }
        if !organization.members.isEmpty {
            // Member lists are rare (they come with `show`): the encoder writes them.
            key("members")
            let text = (try? PrettyJSON.string(organization.members)) ?? "[]"
            buffer.append(string: text.replacingOccurrences(of: "\n", with: "\n" + inner))
        }
        string("nickName", organization.nickName)
        if !organization.remarks.isEmpty {
            key("remarks")
            var seen = Set<String>()
            let remarks = organization.remarks.filter { seen.insert($0.language).inserted }
                .sorted { $0.language.compare($1.language, options: [.numeric, .caseInsensitive, .forcedOrdering]) == .orderedAscending }
            buffer.append("{")
            for (index, remark) in remarks.enumerated() {
                buffer.append(index > 0 ? ",\n" : "\n")
                buffer.append(string: nested)
                appendString(remark.language)
                buffer.append(" : ")
                appendString(remark.value)
            }
            buffer.append("\n")
            buffer.append(string: inner)
            buffer.append("}")
        }
        string("town", organization.town)
        string("type", organization.type.rawValue)
        string("website", organization.website)
        string("wikipedia", organization.wikipedia)
        buffer.append("\n")
        buffer.append(string: indent)
        buffer.append("}")
    }

    /// Ends the array and hands the rest to the sink.
    public func finish() throws {
        buffer.append(count > 0 ? "\n]\n" : "\n\n]\n")
        try flush()
    }

    /// Hands what is buffered to the sink.
    public func flush() throws {
        guard buffer.count > 0 else { return }
        try buffer.withBytes { try sink.write(bytes: $0) }
        buffer.removeAll()
    }

    /// A double as the encoder writes it: Swift's shortest round-trip form, without `.0`.
    private func appendDouble(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        buffer.append(string: text)
    }

    private func appendString(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(jsonString: $0, for: .json) }
    }
}
