import Foundation
import HubGeoJSON
import HubGeoModel

/// What app versions disagree on about a Level 1 file's includes. Versions before 3.1.0 read
/// only an include's last path component, `NAME.level1.json`, from the folder their data comes
/// from (as hubgeo does); versions from 3.1.0 on fetch the URL as written and skip one that is
/// not https. An include that is not https, or lies in another folder than the including file,
/// therefore gives the two a different tree: a warning. (A name that is not NAME.level1.json is
/// the tree walk's error.)
enum IncludeCheck {
    /// The warnings for the includes of the Level 1 document `json`, read at `location`. The
    /// including file's own URL is its location when it was fetched, else its `level1URL`.
    static func diagnostics(_ json: JSONValue, at location: DocumentLocation) -> [Diagnostic] {
        guard case .array(let includes)? = json["level1Header"]?["level1URLIncludes"] else { return [] }
        let file = location.description
        var own: URL?
        if case .remote(let url) = location {
            own = url
        } else if case .string(let written)? = json["level1Header"]?["level1URL"], let url = URL(string: written),
                  url.scheme?.lowercased() == "https", url.host != nil {
            own = url
        }
        var diagnostics: [Diagnostic] = []
        for (index, include) in includes.enumerated() {
            guard case .string(let reference) = include, let name = DocumentLocation.level1IncludeName(reference),
                  let url = URL(string: reference) else { continue }
            let path = "level1Header.level1URLIncludes[\(index)]"
            guard url.scheme?.lowercased() == "https", url.host != nil else {
                diagnostics.append(Diagnostic(
                    severity: .warning, rule: .includeNotHTTPS, file: file, jsonPath: path,
                    message: "include \"\(reference)\" is not an https URL: app versions from 3.1.0 on skip it "
                        + "(earlier ones, and hubgeo, read \(name).level1.json next to this file)"))
                continue
            }
            guard let own, let here = folder(of: own), let there = folder(of: url), here != there else { continue }
            diagnostics.append(Diagnostic(
                severity: .warning, rule: .includeElsewhere, file: file, jsonPath: path,
                message: "include \"\(reference)\" lies in another folder than this file (\(here)): app versions from 3.1.0 on "
                    + "fetch it there, earlier ones (and hubgeo) read \(name).level1.json next to this file"))
        }
        return diagnostics
    }

    /// "https://host/path/" of a URL: scheme and host without case, the path without its last component.
    static func folder(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        var path = url.deletingLastPathComponent().path
        if !path.hasSuffix("/") { path += "/" }
        return "\(scheme)://\(host)\(port)\(path)"
    }
}
