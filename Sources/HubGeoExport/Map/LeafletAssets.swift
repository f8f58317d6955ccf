import Foundation

/// Leaflet and Leaflet.markercluster as Debian installs them (`libjs-leaflet`,
/// `libjs-leaflet.markercluster`), with their copyright files, read to be inlined into the page.
public struct LeafletAssets: Sendable {
    /// The Debian folder of both libraries.
    public static let defaultDirectory = "/usr/share/javascript/leaflet"
    /// Overrides ``defaultDirectory`` (a folder holding the same files).
    public static let environmentVariable = "HUBGEO_LEAFLET_DIR"

    /// The script of Leaflet.
    public var leafletJS: String
    /// The script of Leaflet.markercluster.
    public var markerClusterJS: String
    /// The style sheets of both.
    public var css: String
    /// The licence texts (Debian copyright files), one per library.
    public var licences: [(name: String, text: String)]

    /// An error finding or reading the libraries.
    public struct MissingFile: LocalizedError, Sendable {
        /// The file that could not be read.
        public var path: String
        /// The error in words, naming the packages that hold the files.
        public var errorDescription: String? {
            "cannot read \(path): the map page needs Leaflet and its marker-cluster plugin "
                + "(Debian packages libjs-leaflet and libjs-leaflet.markercluster; or set \(LeafletAssets.environmentVariable))"
        }
    }

    /// Reads the files from `directory` (default: `$HUBGEO_LEAFLET_DIR`, else the Debian folder);
    /// the copyright files from `/usr/share/doc`, or from `directory` when present there.
    public static func load(directory: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LeafletAssets {
        let folder = directory ?? environment[environmentVariable] ?? defaultDirectory
        func read(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else { throw MissingFile(path: path) }
            return String(decoding: data, as: UTF8.self)
        }
        func script(_ name: String) throws -> String {
            let text = try read("\(folder)/\(name)")
            // An inline script ends at the first "</script"; a library containing it cannot be inlined as is.
            guard text.range(of: "</script", options: .caseInsensitive) == nil, !text.contains("<!--") else {
                throw MissingFile(path: "\(folder)/\(name) (contains </script or <!--)")
            }
            return text
        }
        func licence(_ package: String) throws -> String {
            let local = "\(folder)/\(package).copyright"
            return try read(FileManager.default.fileExists(atPath: local) ? local : "/usr/share/doc/\(package)/copyright")
        }
        let css = try ["leaflet.css", "MarkerCluster.css", "MarkerCluster.Default.css"].map { try read("\(folder)/\($0)") }
            .joined(separator: "\n")
        return LeafletAssets(
            leafletJS: try script("leaflet.min.js"), markerClusterJS: try script("leaflet.markercluster.min.js"),
            // The page uses no image of Leaflet's: drop the url()s so that nothing is fetched.
            css: css.replacingOccurrences(of: #"url\(images/[^)]*\)"#, with: "none", options: .regularExpression),
            licences: [("Leaflet (Debian libjs-leaflet)", try licence("libjs-leaflet")),
                       ("Leaflet.markercluster (Debian libjs-leaflet.markercluster)", try licence("libjs-leaflet.markercluster"))])
    }
}
