import Foundation

/// Where a Photo Club Hub file lives: on disk, on a web server, or inside hubgeo itself.
public enum DocumentLocation: Hashable, Sendable, CustomStringConvertible {
    /// A file on disk (a `file:` URL).
    case file(URL)
    /// An http(s) URL.
    case remote(URL)
    /// A file of the data built into hubgeo, by name.
    case embedded(String)

    /// Interprets a command-line argument: an http(s) URL, or a path (file or directory).
    /// A directory stands for the Level 1 root inside it (see `DataSource`).
    public init(argument: String) {
        if let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            self = scheme == "file" ? .file(url.standardizedFileURL) : .remote(url)
        } else {
            self = .file(URL(fileURLWithPath: argument).standardizedFileURL)
        }
    }

    /// The file's own name: the last path component.
    public var fileName: String {
        switch self {
        case .file(let url), .remote(let url): url.lastPathComponent
        case .embedded(let name): name
        }
    }

    /// How the location is shown in messages and stored (as a source): a path, an http(s) URL
    /// without its user and password (``URLRedaction``), or `embedded:NAME`.
    public var description: String {
        switch self {
        case .file(let url): url.path
        case .remote(let url): URLRedaction.redacted(url)  // never the user and password
        case .embedded(let name): "embedded:\(name)"
        }
    }

    /// The folder the document lies in: the same for all its siblings (see ``sibling(named:)``).
    package var folder: DocumentLocation {
        switch self {
        case .file(let url): .file(url.deletingLastPathComponent())
        case .remote(let url): .remote(url.deletingLastPathComponent())
        case .embedded: .embedded("")
        }
    }

    /// The file named `name` in the same folder.
    package func sibling(named name: String) -> DocumentLocation {
        switch self {
        case .file(let url): .file(url.deletingLastPathComponent().appendingPathComponent(name))
        case .remote(let url): .remote(url.deletingLastPathComponent().appendingPathComponent(name))
        case .embedded: .embedded(name)
        }
    }

    /// The NAME of an entry of `level1URLIncludes` whose last path component is `NAME.level1.json`
    /// (NAME without dots; `level1` and `json` in any case), as the app derives it; nil for any
    /// other entry, which the app skips. Host, folder, query and fragment do not count.
    package static func level1IncludeName(_ reference: String) -> String? {
        guard let url = URL(string: reference) else { return nil }
        let parts = url.lastPathComponent.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[0].contains("/"), parts[1].lowercased() == "level1",
              parts[2].lowercased() == "json" else { return nil }
        return String(parts[0])
    }

    /// Where an entry of `level1URLIncludes` points, seen from this file, when its URL is followed
    /// as written (``Level1TreeWalker/followsIncludeURLs``). Files on disk and
    /// embedded files resolve an include by its last path component next to the including
    /// file (the data names its includes by their published URLs); remote files fetch the URL
    /// itself, relative URLs resolved against this file's URL.
    package func resolvingInclude(_ include: String) -> DocumentLocation {
        switch self {
        case .file, .embedded:
            let name = URL(string: include)?.lastPathComponent ?? (include as NSString).lastPathComponent
            return sibling(named: name)
        case .remote(let url):
            return .remote(URL(string: include, relativeTo: url)?.absoluteURL ?? url)
        }
    }
}
