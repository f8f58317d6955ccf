import Foundation

/// Where hubgeo keeps its database unless told otherwise.
package enum DatabaseLocation {
    /// The environment variable that names the database file.
    package static let environmentVariable = "HUBGEO_DB"

    /// `$HUBGEO_DB`, else `$XDG_DATA_HOME/hubgeo/hubgeo.sqlite`, else
    /// `~/.local/share/hubgeo/hubgeo.sqlite` (the XDG default).
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return (dataHome as NSString).appendingPathComponent("hubgeo/hubgeo.sqlite")
    }
}
