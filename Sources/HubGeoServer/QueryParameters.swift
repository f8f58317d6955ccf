import Foundation
import HubGeo

/// The query string of an API request, read with checks that name the parameter at fault: the
/// server's one reader of it. Not Hummingbird's `request.uri.queryParameters` (2.28), which cannot
/// give these answers: it keeps a `+` (a form's space: `q=FOTO+club` must search "FOTO club"), passes
/// a value whose percent-encoding is invalid through undecoded (here a 400 naming the parameter), and
/// leaves the names encoded; nor its `decodeQuery(as:)`, which drops a name without `=`, reads
/// `a[b]=` as nesting and answers with its own messages.
struct QueryParameters: Sendable {
    private var values: [String: [String]] = [:]

    /// Parses `a=1&b=x%20y` (`+` is a space). A parameter given twice is an error when read.
    init(query: String) {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            values[name, default: []].append(value ?? "\u{FFFD}invalid percent-encoding")
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The only value of `name`, nil when absent; 400 when repeated, undecodable or holding a
    /// control character (a NUL would end the text early for SQLite and for number parsing).
    func string(_ name: String) throws(APIError) -> String? {
        guard let list = values[name] else { return nil }
        guard list.count == 1 else { throw .badParameter(name, "\(name) is given \(list.count) times") }
        guard !list[0].hasPrefix("\u{FFFD}invalid") else { throw .badParameter(name, "\(name) has an invalid percent-encoding") }
        if let control = list[0].unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw .badParameter(name, "\(name) contains a control character (U+\(String(repeating: "0", count: 4 - code.count))\(code))")
        }
        return list[0]
    }

    func required(_ name: String) throws(APIError) -> String {
        guard let value = try string(name) else { throw .badParameter(name, "\(name) is missing") }
        return value
    }

    /// A finite number in decimal notation (``DecimalNumber``) within `range`.
    func number(_ name: String, in range: ClosedRange<Double>, required: Bool = true) throws(APIError) -> Double? {
        guard let text = required ? try self.required(name) : try string(name) else { return nil }
        guard let value = DecimalNumber.parse(text.trimmingCharacters(in: .whitespaces)) else {
            throw .badParameter(name, "\(name) \"\(text)\" is not a number")
        }
        guard range.contains(value) else {
            throw .badParameter(name, "\(name) \(text) is outside \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))")
        }
        return value
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = try string(name) else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw .badParameter(name, "\(name) \"\(text)\" is not a whole number")
        }
        guard range.contains(value) else { throw .badParameter(name, "\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)") }
        return value
    }

    /// A box as `west,south,east,north` in degrees (GeoJSON's order); west > east crosses the antimeridian.
    func box(_ name: String) throws(APIError) -> (west: Double, south: Double, east: Double, north: Double) {
        let text = try required(name)
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4 else { throw .badParameter(name, "\(name) \"\(text)\" is not west,south,east,north") }
        var values: [Double] = []
        for (part, range) in zip(parts, [-180.0...180, -90...90, -180...180, -90...90]) {
            guard let value = DecimalNumber.parse(part) else { throw .badParameter(name, "\(name): \"\(part)\" is not a number") }
            guard range.contains(value) else {
                throw .badParameter(name, "\(name): \(part) is outside \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))")
            }
            values.append(value)
        }
        guard values[1] <= values[3] else { throw .badParameter(name, "\(name): south \(parts[1]) is north of north \(parts[3])") }
        return (values[0], values[1], values[2], values[3])
    }

    /// `lang`: a language code like en, nl or pt-br, lower-cased.
    func language() throws(APIError) -> String? {
        guard let text = try string("lang") else { return nil }
        let code = text.lowercased()
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { throw .badParameter("lang", "lang \"\(text)\" is not a language code (like en, nl or pt-br)") }
        return code
    }

    /// `type`: club or museum.
    func type() throws(APIError) -> OrganizationType? {
        guard let text = try string("type") else { return nil }
        guard let type = OrganizationType(rawValue: text) else { throw .badParameter("type", "type \"\(text)\" is not club or museum") }
        return type
    }

    /// Refuses parameters the endpoint does not know (a typo would otherwise be silently ignored).
    func only(_ names: Set<String>) throws(APIError) {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw .badParameter(unknown, "unknown parameter \(unknown) (known: \(names.sorted().joined(separator: ", ")))")
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
