/// One parsed Level 1 file: the files it includes and the organizations it declares.
struct Level1Document {
    struct Include {
        var reference: String
        var jsonPath: String
    }

    var includes: [Include] = []
    var organizations: [Organization] = []
    var diagnostics: [Diagnostic] = []

    /// Reads a Level 1 document. A file whose overall shape is wrong throws;
    /// an unusable organization entry is skipped with a warning.
    init(json: JSONValue, file: String) throws(LoadError) {
        let root = JSONCursor(json)
        guard case .object = json else {
            throw .invalidDocument(file: file, jsonPath: "", reason: "a Level 1 file must be a JSON object, found \(json.kindDescription)")
        }
        if let header = root.member("level1Header"), let includes = header.member("level1URLIncludes") {
            guard case .array(let values) = includes.value else {
                throw .invalidDocument(file: file, jsonPath: includes.path, reason: "expected an array of URLs, found \(includes.value.kindDescription)")
            }
            for (index, value) in values.enumerated() {
                let path = "\(includes.path)[\(index)]"
                guard case .string(let reference) = value, !reference.isEmpty else {
                    throw .invalidDocument(file: file, jsonPath: path, reason: "expected a URL string, found \(value.kindDescription)")
                }
                self.includes.append(Include(reference: reference, jsonPath: path))
            }
        }
        for type in OrganizationType.allCases {
            guard let array = root.member(type.level1ArrayName) else { continue }
            guard case .array = array.value else {
                throw .invalidDocument(file: file, jsonPath: array.path, reason: "expected an array, found \(array.value.kindDescription)")
            }
            for entry in (try? array.elements()) ?? [] {
                do throws(JSONCursor.Problem) {
                    let (record, warnings) = try OrganizationRecord.read(entry)
                    organizations.append(record.organization(type: type, source: file))
                    diagnostics += warnings.map { Diagnostic(severity: .warning, file: file, jsonPath: $0.path, line: $0.line, message: $0.message) }
                } catch {
                    diagnostics.append(Diagnostic(severity: .warning, file: file, jsonPath: error.path, line: error.line,
                                                  message: "\(error.message); \(type.rawValue) at \(entry.path) skipped"))
                }
            }
        }
    }
}
